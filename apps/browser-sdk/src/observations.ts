/**
 * What the SDK sends: SDK contract v1 (DESIGN.md section 5, `libs/contracts/src/sdk/observations.ts`). Declared
 * here again because the browser bundle imports nothing from the server side; the contract's checks are the
 * authority, and the browser tests post through them.
 */
export type Observation =
  | {
      kind: 'script';
      src?: string;
      inline: boolean;
      hash?: string;
      hash_source?: 'sdk' | 'sri';
      size_bytes?: number;
      integrity_attr?: boolean;
      gtm_container?: string;
      blocked?: boolean;
    }
  | { kind: 'headers'; headers: Record<string, string> }
  | { kind: 'csp_violation'; directive: string; blocked_uri: string; source_file?: string }
  | { kind: 'sensitive_field_access'; src: string; field: string }
  | { kind: 'iframe'; origin: string }
  | { kind: 'payment_recipient'; method: string; key_hash: string };

/**
 * The SDK's own policy checks (overlay, installation order, service workers, tag-manager containers) travel as
 * `csp_violation` with a `pss-` directive: the service raises them as CSP_VIOLATION alerts like a browser's.
 */
export const sdkCheck = (check: string, subject: string): Observation => ({ kind: 'csp_violation', directive: `pss-${check}`, blocked_uri: subject.slice(0, 2048) });
