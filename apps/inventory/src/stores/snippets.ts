export interface InstallSnippets {
  html: string;
  nextjs: string;
  nuxt: string;
  wordpress: string;
}

/**
 * Ready-to-paste install snippets. The SDK must run before any other script of the payment page to see them
 * all, so every snippet loads it synchronously, first in <head>. Each is a complete, valid piece of its
 * framework (checked by compiling it in snippets.spec.ts): the Next.js one a root layout, the Nuxt one a
 * config file, the WordPress one a PHP hook.
 */
export function installSnippets(sdkScriptUrl: string, sdkKey: string): InstallSnippets {
  const src = `${sdkScriptUrl}?key=${sdkKey}`;
  const tag = `<script src="${src}" data-key="${sdkKey}" crossorigin="anonymous"></script>`;
  return {
    html: `<!-- First element of <head> on every payment page -->\n${tag}`,
    nextjs:
      `// app/layout.tsx: the SDK first in <head> of the root layout (Pages Router: the same <Script> in pages/_document.tsx)\n` +
      `import Script from 'next/script';\nimport type { ReactNode } from 'react';\n\n` +
      `export default function RootLayout({ children }: { children: ReactNode }) {\n  return (\n    <html>\n      <head>\n` +
      `        <Script src="${src}" data-key="${sdkKey}" strategy="beforeInteractive" crossOrigin="anonymous" />\n` +
      `      </head>\n      <body>{children}</body>\n    </html>\n  );\n}\n`,
    nuxt:
      `// nuxt.config.ts\nexport default defineNuxtConfig({\n  app: {\n    head: {\n      script: [{ src: '${src}', 'data-key': '${sdkKey}', crossorigin: 'anonymous', tagPosition: 'head' }],\n    },\n  },\n});`,
    wordpress:
      `<?php\n// functions.php of the active theme, or a small plugin: priority 1 puts it first in <head>\nadd_action('wp_head', function () {\n  echo '${tag}';\n}, 1);`,
  };
}
