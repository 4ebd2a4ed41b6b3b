export interface InstallSnippets {
  html: string;
  nextjs: string;
  nuxt: string;
  wordpress: string;
}

/**
 * Ready-to-paste install snippets. The SDK must run before any other script of the payment page to see them
 * all, so every snippet loads it synchronously, first in <head>.
 */
export function installSnippets(sdkScriptUrl: string, sdkKey: string): InstallSnippets {
  const src = `${sdkScriptUrl}?key=${sdkKey}`;
  return {
    html: `<!-- First element of <head> on every payment page -->\n<script src="${src}" data-key="${sdkKey}" crossorigin="anonymous"></script>`,
    nextjs:
      `// app/layout.tsx (or pages/_document.tsx)\nimport Script from 'next/script';\n\n` +
      `<Script src="${src}" data-key="${sdkKey}" strategy="beforeInteractive" crossOrigin="anonymous" />`,
    nuxt:
      `// nuxt.config.ts\nexport default defineNuxtConfig({\n  app: {\n    head: {\n      script: [{ src: '${src}', 'data-key': '${sdkKey}', crossorigin: 'anonymous', tagPosition: 'head' }],\n    },\n  },\n});`,
    wordpress:
      `<?php\n// functions.php of the active theme, or a small plugin\nadd_action('wp_head', function () {\n  echo '<script src="${src}" data-key="${sdkKey}" crossorigin="anonymous"></script>';\n}, 1);`,
  };
}
