import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { Injectable, type OnModuleInit } from '@nestjs/common';
import { build } from 'esbuild';
import { SDK_VERSION } from '../../../browser-sdk/src/version';

/** One built SDK: what `/sdk/v1/sdk-<version>.js` serves, with its SRI hash for `integrity` pinning. */
export interface SdkRelease {
  version: string;
  code: Buffer;
  /** The same bytes gzipped once at start-up, for clients that accept it. */
  gzip: Buffer;
  etag: string;
  /** `sha384-…` of `code`, as a `<script integrity>` attribute takes it. */
  integrity: string;
}

export type ReleaseChannel = 'stable' | 'latest';

export const SDK_ENTRY = join(__dirname, '../../../browser-sdk/src/main.ts');

/** The browser SDK bundled as browsers get it: one minified IIFE for ES2017, no dependency. */
export async function buildSdk(): Promise<SdkRelease> {
  const result = await build({
    entryPoints: [SDK_ENTRY],
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
  const code = Buffer.from(result.outputFiles[0].contents);
  const sha384 = createHash('sha384').update(code).digest('base64');
  return { version: SDK_VERSION, code, gzip: gzipSync(code, { level: 9 }), etag: `"${SDK_VERSION}-${sha384.slice(0, 16)}"`, integrity: `sha384-${sha384}` };
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
