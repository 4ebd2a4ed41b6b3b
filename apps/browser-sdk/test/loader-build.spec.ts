import { SDK_LOADER } from '@pss/contracts';
import { bundleForBrowsers, LOADER_ENTRY } from '@pss/api-gateway/src/sdk/sdk-bundle';

describe('the install loader as kept in libs/contracts', () => {
  it('is the build of apps/browser-sdk/src/loader.ts (else run `npm run -s build:loader` and commit the new text: shops must update their CSP hash)', async () => {
    expect(SDK_LOADER).toBe(await bundleForBrowsers(LOADER_ENTRY));
  });
});
