import { createHash } from 'node:crypto';
import { SDK_LOADER } from './sdk-loader.generated';

export { SDK_LOADER };

/** The CSP source that allows the install snippets' inline loader: `script-src 'sha256-…'`, the same for every store. */
export const SDK_LOADER_CSP_HASH = `sha256-${createHash('sha256').update(SDK_LOADER).digest('base64')}`;
