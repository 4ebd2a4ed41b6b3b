import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { Injectable, type OnModuleInit } from '@nestjs/common';
import { build } from 'esbuild';
import { SDK_VERSION } from '@pss/sdk-contract';

/** Bytes the gateway serves as a script, gzipped once for clients that accept it. */
export interface ServedScript {
  code: Buffer;
  gzip: Buffer;
  etag: string;
}

/** One built SDK: what `/sdk/v1/sdk-<version>.js` serves, with its SRI hash for `integrity` pinning. */
export interface SdkRelease extends ServedScript {
  version: string;
  /** The IIFE alone, without the compile hint above it: what a keyed `sdk.js` wraps with its store's config. */
  iife: string;
  /** `sha384-…` of `code`, as a `<script integrity>` attribute takes it. */
  integrity: string;
}

/**
 * V8's explicit compile hint (Chrome 136+), on the script's first line: every function of the SDK runs on a page
 * view, so compiling them all eagerly, off the main thread while the script streams in, spares the page's main
 * thread the lazy compilation of each at its first call (about a quarter of the SDK's main-thread time in a trace,
 * docs/benchmarks.md, benchmark 7). Other engines read a comment.
 */
export const COMPILE_HINT = '//# allFunctionsCalledOnLoad';

export type ReleaseChannel = 'stable' | 'latest';

export const SDK_ENTRY = join(__dirname, '../../../browser-sdk/src/main.ts');

/** The install snippets' inline loader (browser-sdk/src/loader.ts), whose built text is kept in libs/contracts. */
export const LOADER_ENTRY = join(__dirname, '../../../browser-sdk/src/loader.ts');

/** Browser code bundled as browsers get it: one minified IIFE for ES2017, no dependency. */
export async function bundleForBrowsers(entry: string): Promise<string> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    minify: true,
    format: 'iife',
    target: 'es2017',
    platform: 'browser',
    legalComments: 'none',
    charset: 'utf8',
    logLevel: 'silent',
  });
  return result.outputFiles[0].text.trimEnd();
}

/** The browser SDK as `/sdk/v1/sdk-<version>.js` serves it. */
export async function buildSdk(): Promise<SdkRelease> {
  const iife = `${await bundleForBrowsers(SDK_ENTRY)}\n`;
  const code = Buffer.from(`${COMPILE_HINT}\n${iife}`);
  const sha384 = createHash('sha384').update(code).digest('base64');
  return { version: SDK_VERSION, iife, code, gzip: gzipSync(code, { level: 9 }), etag: `"${SDK_VERSION}-${sha384.slice(0, 16)}"`, integrity: `sha384-${sha384}` };
}

/**
 * The SDK is built from source when the gateway starts (esbuild takes milliseconds), so `npm start` serves it
 * with no build step and tests load the very bytes users get. One source tree holds one version: both release
 * channels point at it until a release process keeps an older build for `stable` (docs/sdk.md).
 */
@Injectable()
export class SdkBundle implements OnModuleInit {
  private built?: SdkRelease;

  async onModuleInit(): Promise<void> {
    this.built = await buildSdk();
  }

  /** The release a channel points at. */
  channel(_channel: ReleaseChannel): SdkRelease {
    return this.current();
  }

  /** A release by version, or undefined when this gateway does not hold it. */
  release(version: string): SdkRelease | undefined {
    return version === this.current().version ? this.current() : undefined;
  }

  releases(): SdkRelease[] {
    return [this.current()];
  }

  private current(): SdkRelease {
    if (!this.built) throw new Error('the SDK bundle is built at module init');
    return this.built;
  }
}
