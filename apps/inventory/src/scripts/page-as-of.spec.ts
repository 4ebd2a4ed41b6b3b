import type { ScriptAtMoment } from '@pss/contracts';
import { scriptOnPageAt } from './page-as-of';
import type { ScriptDecision, ScriptEvent } from './script.events';

const CHECKOUT = '/checkout/**';
const t = (minute: number): string => new Date(Date.UTC(2026, 10, 20, 12, minute)).toISOString();
const content = (hash: string) => ({ hash, sriHash: null, hashSource: 'sdk', integrityAttr: null, sizeBytes: 120 });
const person: ScriptDecision = { method: 'manual', by: 'user:ana@loja.example', justification: 'Payment widget', policyId: null, policyVersion: null, prevalenceSeen: null };
const src = 'https://cdn.psp.example/widget.js';

const detected = (minute: number, pageUrl = 'https://loja.example/checkout/pay'): ScriptEvent => ({
  type: 'ScriptDetected',
  data: {
    ...content('sha384-A'),
    scriptId: 'sc1',
    storeId: 'st1',
    orgId: 'org1',
    src,
    inline: false,
    host: 'cdn.psp.example',
    type: 'known_third',
    vendorId: null,
    category: 'payment',
    status: 'needs_review',
    gtmContainer: null,
    pageUrl,
    sessionId: 's1',
    detectedAt: t(minute),
  },
});
const authorized = (minute: number): ScriptEvent => ({
  type: 'ScriptAuthorized',
  data: { ...person, scriptId: 'sc1', storeId: 'st1', authorizedHash: 'sha384-A', expiresAt: null, reviewDueAt: null, authorizedAt: t(minute) },
});
const changed = (minute: number, hash: string, pageUrl = 'https://loja.example/checkout/pay'): ScriptEvent => ({
  type: 'ScriptHashChanged',
  data: {
    ...content(hash),
    scriptId: 'sc1',
    storeId: 'st1',
    previousHash: 'sha384-A',
    integrityStatus: hash === 'sha384-A' ? 'match' : 'mismatch',
    unauthorizedChange: hash !== 'sha384-A',
    authorizedHash: 'sha384-A',
    src,
    pageUrl,
    sessionId: 's2',
    changedAt: t(minute),
  },
});
const blocked = (minute: number): ScriptEvent => ({ type: 'ScriptBlocked', data: { ...person, scriptId: 'sc1', storeId: 'st1', ruleId: 'r1', blockedAt: t(minute) } });
const recommended: ScriptEvent = { type: 'ScriptRecommended', data: { scriptId: 'sc1', storeId: 'st1', recommendation: null as never } };

/** Given the script's stored events, when someone looks at the page at a moment, then this is what was on it. */
const given = (events: ScriptEvent[]) => ({
  when: (minute: number, urlPattern = CHECKOUT) => ({
    then: (expected: Partial<ScriptAtMoment> | null) => {
      const found = scriptOnPageAt(events, new Date(t(minute)), urlPattern);
      if (expected === null) expect(found).toBeNull();
      else expect(found).toMatchObject(expected);
    },
  }),
});

describe('a payment page as of a moment', () => {
  const history = [detected(0), recommended, authorized(10), changed(30, 'sha384-B'), blocked(40)];

  it('shows nothing before the script was first seen', () => {
    given(history).when(-1).then(null);
  });

  it('shows the script as first seen, then as authorized with the authorized content', () => {
    given(history).when(5).then({ script_id: 'sc1', src, status: 'needs_review', hash: 'sha384-A', integrity_status: 'monitored', first_seen_at: t(0), changed_at: t(0) });
    given(history).when(10).then({ status: 'authorized', hash: 'sha384-A', authorized_hash: 'sha384-A', integrity_status: 'match', changed_at: t(10) });
    given(history).when(29).then({ status: 'authorized', hash: 'sha384-A', integrity_status: 'match' });
  });

  it('shows the changed content as a mismatch from the moment it changed, and the block after it', () => {
    given(history).when(30).then({ status: 'authorized', hash: 'sha384-B', authorized_hash: 'sha384-A', integrity_status: 'mismatch', changed_at: t(30) });
    given(history).when(45).then({ status: 'blocked', hash: 'sha384-B', integrity_status: 'blocked', changed_at: t(40) });
  });

  it('ends a held mismatch when the authorized content comes back', () => {
    given([detected(0), authorized(10), changed(30, 'sha384-B'), changed(35, 'sha384-A')]).when(36).then({ hash: 'sha384-A', integrity_status: 'match' });
  });

  it('counts a script on the page only once one of its recorded sightings came from a page the pattern matches', () => {
    given(history).when(50, '/cart').then(null);
    const elsewhere = [detected(0, 'https://loja.example/product/1'), authorized(10), changed(30, 'sha384-B', 'https://loja.example/checkout/pay')];
    given(elsewhere).when(20).then(null);
    given(elsewhere).when(31).then({ hash: 'sha384-B', integrity_status: 'mismatch' });
  });
});
