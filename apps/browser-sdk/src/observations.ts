/** What the SDK sends: SDK contract v1 (a type-only import: nothing of the server side enters the bundle). */
import type { Observation } from '@pss/contracts/sdk/observations';

export type { Observation };

/**
 * The SDK's own policy checks (overlay, installation order, service workers, tag-manager containers) travel as
 * `csp_violation` with a `pss-` directive: the service raises them as CSP_VIOLATION alerts like a browser's.
 */
export const sdkCheck = (check: string, subject: string): Observation => ({ kind: 'csp_violation', directive: `pss-${check}`, blocked_uri: subject.slice(0, 2048) });
