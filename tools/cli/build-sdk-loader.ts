import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bundleForBrowsers, LOADER_ENTRY } from '@pss/api-gateway/src/sdk/sdk-bundle';

/** Where the built loader is kept: its bytes are what shops' CSP hashes allow, so they change only with a commit. */
export const LOADER_FILE = join(__dirname, '../../libs/contracts/src/sdk/sdk-loader.generated.ts');

export const loaderModule = (code: string): string =>
  `// Built from apps/browser-sdk/src/loader.ts by \`npm run -s build:loader\`; do not edit.\nexport const SDK_LOADER = ${JSON.stringify(code)};\n`;

if (require.main === module) {
  void bundleForBrowsers(LOADER_ENTRY).then((code) => {
    writeFileSync(LOADER_FILE, loaderModule(code));
    process.stdout.write(`${LOADER_FILE}: ${code.length} bytes\n`);
  });
}
