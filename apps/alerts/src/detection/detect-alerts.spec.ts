import type { FieldReadingScript } from '@pss/contracts';
import { fingerprintOf } from '../alert/fingerprint';
import { inventoryFact as fact } from '../testing/inventory-fact';
import { detectAlerts } from './detect-alerts';

const seen = { page_url: 'https://loja.example/checkout?step=pay', session_id: 'sess-1', at: '2026-05-04T15:00:00.000Z' };
const common = { orgId: 'org-1', storeId: 'store-1', at: '2026-05-04T15:00:00.000Z', mark: 42, page: '/checkout' };

describe('alerts detected in inventory facts', () => {
  it('raises SCRIPT_INTEGRITY_MISMATCH for an unauthorized change of an authorized script only', () => {
    const change = {
      script_id: 'sc1',
      src: 'https://sdk.mercadopago.com/js/v2',
      previous_hash: 'sha384-old',
      new_hash: 'sha384-new',
      authorized_hash: 'sha384-old',
      integrity_status: 'mismatch',
      unauthorized_change: true,
      page_url: seen.page_url,
    };
    expect(detectAlerts(fact('inventory.script.hash-changed', change))).toEqual([
      {
        ...common,
        type: 'SCRIPT_INTEGRITY_MISMATCH',
        fingerprint: fingerprintOf('SCRIPT_INTEGRITY_MISMATCH', 'store-1', 'sc1'),
        changeType: null,
        source: 'https://sdk.mercadopago.com/js/v2',
        details: { script_id: 'sc1', src: change.src, previous_hash: 'sha384-old', new_hash: 'sha384-new', authorized_hash: 'sha384-old', page_url: seen.page_url },
        sessionId: null,
      },
    ]);
    expect(detectAlerts(fact('inventory.script.hash-changed', { ...change, unauthorized_change: false }))).toEqual([]);
  });

  it('raises SCRIPT_INTEGRITY_MISMATCH, an alert of its own, for a script the browser refused for its integrity', () => {
    const refusal = { ...seen, script_id: 'sc1', src: 'https://cdn.vendor.example/v.js', hash: 'sha384-served', refused_integrity: 'sha384-pinned', refused_at: seen.at };
    expect(detectAlerts(fact('inventory.script.integrity-refused', refusal))).toEqual([
      {
        ...common,
        type: 'SCRIPT_INTEGRITY_MISMATCH',
        fingerprint: fingerprintOf('SCRIPT_INTEGRITY_MISMATCH', 'store-1', 'sc1', 'sri-refused'),
        changeType: null,
        source: refusal.src,
        details: {
          script_id: 'sc1',
          src: refusal.src,
          new_hash: 'sha384-served',
          refused_integrity: 'sha384-pinned',
          sri_refused: true,
          reason: "The browser refused to run this script: its content does not match the page's integrity attribute",
          page_url: seen.page_url,
        },
        sessionId: 'sess-1',
      },
    ]);
    expect(fingerprintOf('SCRIPT_INTEGRITY_MISMATCH', 'store-1', 'sc1', 'sri-refused')).not.toBe(fingerprintOf('SCRIPT_INTEGRITY_MISMATCH', 'store-1', 'sc1'));
  });

  it('raises one HEADER_CHANGED per header, with its change type and both values', () => {
    const occurrences = detectAlerts(
      fact('inventory.headers.changed', {
        page: '/checkout',
        page_url: seen.page_url,
        changes: [
          { name: 'content-security-policy', change_type: 'changed', old_value: "script-src 'self'", new_value: "script-src 'self' https://evil.example" },
          { name: 'x-frame-options', change_type: 'removed', old_value: 'DENY', new_value: null },
        ],
      }),
    );
    expect(occurrences).toHaveLength(2);
    expect(occurrences[0]).toMatchObject({
      type: 'HEADER_CHANGED',
      changeType: 'changed',
      source: 'content-security-policy',
      page: '/checkout',
      fingerprint: fingerprintOf('HEADER_CHANGED', 'store-1', 'content-security-policy'),
      details: {
        header: 'content-security-policy',
        change_type: 'changed',
        old_value: "script-src 'self'",
        new_value: "script-src 'self' https://evil.example",
        page: '/checkout',
        page_url: seen.page_url,
      },
    });
    expect(occurrences[1]).toMatchObject({ changeType: 'removed', details: { header: 'x-frame-options', old_value: 'DENY', new_value: null } });
  });

  it('raises CSP_VIOLATION per directive and blocked URI, with the session', () => {
    const [occurrence] = detectAlerts(fact('inventory.csp.violation', { ...seen, directive: 'script-src', blocked_uri: 'https://evil.example/x.js', source_file: null }));
    expect(occurrence).toMatchObject({
      type: 'CSP_VIOLATION',
      source: 'https://evil.example/x.js',
      sessionId: 'sess-1',
      fingerprint: fingerprintOf('CSP_VIOLATION', 'store-1', 'script-src', 'https://evil.example/x.js'),
      details: { directive: 'script-src', blocked_uri: 'https://evil.example/x.js', source_file: null, page_url: seen.page_url },
    });
  });

  it('raises MALICIOUS_SCRIPT for a threat-list script only', () => {
    const detected = { ...seen, script_id: 'sc9', src: 'https://magentocore.net/mage.js', host: 'magentocore.net', hash: 'sha384-x', status: 'malicious' as const };
    expect(detectAlerts(fact('inventory.script.detected', detected))).toEqual([
      expect.objectContaining({ type: 'MALICIOUS_SCRIPT', source: detected.src, sessionId: 'sess-1', details: { script_id: 'sc9', src: detected.src, host: 'magentocore.net', hash: 'sha384-x', page_url: seen.page_url } }),
    ]);
    expect(detectAlerts(fact('inventory.script.detected', { ...detected, status: 'needs_review' }))).toEqual([]);
  });

  it('raises SENSITIVE_FIELD_ACCESS for a script that is not authorized only', () => {
    const access = { ...seen, script_id: 'sc2', src: 'https://cdn.widgets.io/w.js', field: 'card_number', script_authorized: false };
    expect(detectAlerts(fact('inventory.sensitive-field.accessed', access))).toEqual([
      expect.objectContaining({ type: 'SENSITIVE_FIELD_ACCESS', fingerprint: fingerprintOf('SENSITIVE_FIELD_ACCESS', 'store-1', 'sc2'), details: { script_id: 'sc2', src: access.src, field: 'card_number', page_url: seen.page_url } }),
    ]);
    expect(detectAlerts(fact('inventory.sensitive-field.accessed', { ...access, script_authorized: true }))).toEqual([]);
  });

  describe('a read through a library', () => {
    const jquery = { script_id: 'jq', src: 'https://code.jquery.example/jquery.js', script_authorized: true };
    const skimmer = { script_id: 'sk', src: 'https://skim.example/s.js', script_authorized: false };
    const app = { script_id: 'app', src: 'https://loja.example/app.js', script_authorized: true };
    const read = (reader: FieldReadingScript, ...callers: FieldReadingScript[]) => detectAlerts(fact('inventory.sensitive-field.accessed', { ...seen, ...reader, field: 'cvv', callers }));

    it('names the unauthorized caller behind an authorized library, and what it read through', () => {
      expect(read(jquery, skimmer, app)).toEqual([
        expect.objectContaining({
          type: 'SENSITIVE_FIELD_ACCESS',
          fingerprint: fingerprintOf('SENSITIVE_FIELD_ACCESS', 'store-1', 'sk'),
          source: skimmer.src,
          details: { script_id: 'sk', src: skimmer.src, field: 'cvv', read_via: [jquery.src], page_url: seen.page_url },
        }),
      ]);
    });

    it('names the outermost unauthorized script when more than one is, and none when all are authorized', () => {
      const loader = { script_id: 'ld', src: 'https://skim.example/loader.js', script_authorized: false };
      expect(read({ ...jquery, script_authorized: false }, skimmer, loader)).toEqual([
        expect.objectContaining({ source: loader.src, details: expect.objectContaining({ script_id: 'ld', read_via: [jquery.src, skimmer.src] }) }),
      ]);
      expect(read(jquery, app)).toEqual([]);
    });
  });

  it('raises UNEXPECTED_IFRAME per host', () => {
    const [occurrence] = detectAlerts(fact('inventory.iframe.unexpected', { ...seen, origin: 'https://pay.evil.example', host: 'pay.evil.example', expected: ['mercadopago.com'] }));
    expect(occurrence).toMatchObject({ type: 'UNEXPECTED_IFRAME', source: 'https://pay.evil.example', fingerprint: fingerprintOf('UNEXPECTED_IFRAME', 'store-1', 'pay.evil.example') });
  });

  it('raises NEW_CONNECTION per destination, critical when its page view had a card-field read by a script not authorized', () => {
    const skimmer = { script_id: 'sk', src: 'https://cdn.evil.example/s.js' };
    const detected = { ...seen, connection_id: 'c1', store_id: 'store-1', origin: 'https://exfil.example', via: 'fetch' as const, page: '/checkout', initiator: skimmer, sensitive_read: null };
    const [usual] = detectAlerts(fact('inventory.connection.detected', detected));
    expect(usual).toEqual({
      ...common,
      type: 'NEW_CONNECTION',
      fingerprint: fingerprintOf('NEW_CONNECTION', 'store-1', 'https://exfil.example'),
      changeType: null,
      source: 'https://exfil.example',
      details: { connection_id: 'c1', origin: 'https://exfil.example', via: 'fetch', initiator: skimmer.src, initiator_script_id: 'sk', sensitive_read: null, page_url: seen.page_url },
      sessionId: 'sess-1',
    });
    const read = { ...skimmer, field: 'card_number' };
    expect(detectAlerts(fact('inventory.connection.detected', { ...detected, sensitive_read: read }))).toEqual([
      { ...usual, severity: 'critical', details: { ...usual.details, sensitive_read: read } },
    ]);
    expect(detectAlerts(fact('inventory.connection.seen', { ...detected, page: null }))).toEqual([]);
  });

  it('raises RECIPIENT_MISMATCH per method and key hash, with hashes only', () => {
    const keyHash = 'a'.repeat(64);
    const [occurrence] = detectAlerts(fact('inventory.recipient.mismatched', { ...seen, method: 'pix', key_hash: keyHash, pinned: 1 }));
    expect(occurrence).toMatchObject({
      type: 'RECIPIENT_MISMATCH',
      source: 'pix',
      fingerprint: fingerprintOf('RECIPIENT_MISMATCH', 'store-1', 'pix', keyHash),
      details: { method: 'pix', key_hash: keyHash, pinned: 1, page_url: seen.page_url },
    });
  });

  it('tells stores apart, and ignores facts without a tenant and topics it does not know', () => {
    const violation = { ...seen, directive: 'script-src', blocked_uri: 'https://evil.example/x.js', source_file: null };
    const [one] = detectAlerts(fact('inventory.csp.violation', violation));
    const [other] = detectAlerts(fact('inventory.csp.violation', violation, { store_id: 'store-2' }));
    expect(one.fingerprint).not.toBe(other.fingerprint);
    expect(one.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(detectAlerts(fact('inventory.csp.violation', violation, { org_id: null }))).toEqual([]);
    expect(detectAlerts(fact('inventory.store.updated', {}))).toEqual([]);
  });
});
