import { transform } from 'esbuild';
import { installSnippets } from './snippets';

const KEY = `pk_live_${'ab12'.repeat(8)}`;
const snippets = installSnippets('https://pss.example/sdk/v1/sdk.js', KEY);
const SRC = `https://pss.example/sdk/v1/sdk.js?key=${KEY}`;

describe('install snippets, as pasted', () => {
  it('html: one synchronous script tag loading the SDK with its key', () => {
    expect(snippets.html).toContain(`<script src="${SRC}" data-key="${KEY}" crossorigin="anonymous"></script>`);
    expect(snippets.html).not.toMatch(/\basync\b|\bdefer\b/);
  });

  it('nextjs: a root layout that compiles as TSX', async () => {
    await expect(transform(snippets.nextjs, { loader: 'tsx' })).resolves.toBeDefined();
    expect(snippets.nextjs).toContain(`src="${SRC}"`);
    expect(snippets.nextjs).toContain('strategy="beforeInteractive"');
  });

  it('nuxt: a config file that compiles as TypeScript', async () => {
    await expect(transform(snippets.nuxt, { loader: 'ts' })).resolves.toBeDefined();
    expect(snippets.nuxt).toContain(`src: '${SRC}'`);
  });

  it('wordpress: a PHP hook whose single-quoted string holds exactly the html tag', () => {
    const echoed = /echo '((?:[^'\\]|\\.)*)';/.exec(snippets.wordpress);
    expect(snippets.wordpress.startsWith('<?php\n')).toBe(true);
    expect(echoed?.[1]).toBe(snippets.html.split('\n')[1]);
    expect(snippets.wordpress).toMatch(/add_action\('wp_head', function \(\) \{[\s\S]*\}, 1\);$/);
  });
});
