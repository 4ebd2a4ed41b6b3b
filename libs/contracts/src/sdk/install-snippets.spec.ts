import { transform } from 'esbuild';
import { SDK_LOADER, SDK_LOADER_CSP_HASH } from './sdk-loader';
import { installSnippets } from './install-snippets';

const KEY = `pk_live_${'ab12'.repeat(8)}`;
const snippets = installSnippets('https://pss.example/sdk/v1/sdk.js', KEY);
const SRC = `https://pss.example/sdk/v1/sdk.js?key=${KEY}`;

describe('install snippets, as pasted', () => {
  it('html: one inline loader with the SDK URL and key as attributes, no script src that could hold the page', () => {
    expect(snippets.html).toContain(`<script data-key="${KEY}" data-src="${SRC}">${SDK_LOADER}</script>`);
    expect(snippets.html).not.toMatch(/<script[^>]*\ssrc=/);
  });

  it('nextjs: a root layout that compiles as TSX and renders the same element', async () => {
    await expect(transform(snippets.nextjs, { loader: 'tsx' })).resolves.toBeDefined();
    expect(snippets.nextjs).toContain(`<script data-key="${KEY}" data-src="${SRC}" dangerouslySetInnerHTML={{ __html: SDK_LOADER }} />`);
    expect(snippets.nextjs).toContain(`const SDK_LOADER = ${JSON.stringify(SDK_LOADER)};`);
  });

  it('nuxt: a config file that compiles as TypeScript', async () => {
    await expect(transform(snippets.nuxt, { loader: 'ts' })).resolves.toBeDefined();
    expect(snippets.nuxt).toContain(`'data-src': '${SRC}'`);
    expect(snippets.nuxt).toContain(`innerHTML: ${JSON.stringify(SDK_LOADER)}`);
  });

  it('wordpress: a PHP hook whose single-quoted string holds exactly the html tag', () => {
    const echoed = /echo '((?:[^'\\]|\\.)*)';/.exec(snippets.wordpress);
    expect(snippets.wordpress.startsWith('<?php\n')).toBe(true);
    expect(echoed?.[1]).toBe(snippets.html.split('\n')[1]);
    expect(snippets.wordpress).toMatch(/add_action\('wp_head', function \(\) \{[\s\S]*\}, 1\);$/);
  });
});

describe('the SDK loader', () => {
  it('is a script a PHP single-quoted string holds as it is, that no HTML parser ends early, and its CSP hash is the hash of its text', async () => {
    await expect(transform(SDK_LOADER, { loader: 'js' })).resolves.toBeDefined();
    expect(SDK_LOADER).not.toMatch(/'|\\\\|<\/script/i);
    expect(SDK_LOADER_CSP_HASH).toMatch(/^sha256-[A-Za-z0-9+/]{43}=$/);
  });
});
