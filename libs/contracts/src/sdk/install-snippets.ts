import { SDK_LOADER } from './sdk-loader';

export interface InstallSnippets {
  html: string;
  nextjs: string;
  nuxt: string;
  wordpress: string;
}

/**
 * Ready-to-paste install snippets: the inline loader (browser-sdk/src/loader.ts), first in <head>, so the SDK starts as early
 * as it can without the page ever waiting for the service. Each is a complete, valid piece of its framework
 * (checked by compiling it in snippets.spec.ts): the Next.js one a root layout, the Nuxt one a config file, the
 * WordPress one a PHP hook. Each renders the same `<script>` element, so the shop's CSP hash is one.
 */
export function installSnippets(sdkScriptUrl: string, sdkKey: string): InstallSnippets {
  const src = `${sdkScriptUrl}?key=${sdkKey}`;
  const tag = `<script data-key="${sdkKey}" data-src="${src}">${SDK_LOADER}</script>`;
  return {
    html: `<!-- First element of <head> on every payment page -->\n${tag}`,
    nextjs:
      `// app/layout.tsx: the SDK's loader first in <head> of the root layout (Pages Router: the same <script> in pages/_document.tsx)\n` +
      `import type { ReactNode } from 'react';\n\n` +
      `const SDK_LOADER = ${JSON.stringify(SDK_LOADER)};\n\n` +
      `export default function RootLayout({ children }: { children: ReactNode }) {\n  return (\n    <html>\n      <head>\n` +
      `        <script data-key="${sdkKey}" data-src="${src}" dangerouslySetInnerHTML={{ __html: SDK_LOADER }} />\n` +
      `      </head>\n      <body>{children}</body>\n    </html>\n  );\n}\n`,
    nuxt:
      `// nuxt.config.ts\nexport default defineNuxtConfig({\n  app: {\n    head: {\n` +
      `      script: [{ 'data-key': '${sdkKey}', 'data-src': '${src}', innerHTML: ${JSON.stringify(SDK_LOADER)}, tagPosition: 'head' }],\n` +
      `    },\n  },\n});`,
    wordpress:
      `<?php\n// functions.php of the active theme, or a small plugin: priority 1 puts it first in <head>\nadd_action('wp_head', function () {\n  echo '${tag}';\n}, 1);`,
  };
}
