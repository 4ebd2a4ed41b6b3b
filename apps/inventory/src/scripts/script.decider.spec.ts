import { deciderSpec } from '@pss/testkit';
import { scriptDecider, type ScriptCommand, type ScriptSighting } from './script.decider';
import type { ScriptDecision, ScriptEvent } from './script.events';

const at = new Date('2026-05-01T10:00:00.000Z');
const sighting = (hash: string | null): ScriptSighting => ({
  scriptId: 'sc1',
  storeId: 'st1',
  orgId: 'org1',
  src: 'https://cdn.example.com/app.js',
  inline: false,
  host: 'cdn.example.com',
  hash,
  sriHash: null,
  hashSource: hash ? 'sdk' : null,
  integrityAttr: null,
  sizeBytes: 100,
  gtmContainer: null,
  pageUrl: 'https://loja.example/checkout',
  sessionId: 'sess',
  refusedIntegrity: null,
  client: 'client-1',
});
const observe = (hash: string | null, threat = false): ScriptCommand => ({
  type: 'ObserveScript',
  sighting: sighting(hash),
  classification: { type: 'unknown', vendorId: null, category: null, threat },
  at,
});
const detected = (hash: string | null): ScriptEvent => scriptDecider.decide(observe(hash), scriptDecider.initialState())[0];
const byApi: ScriptDecision = { method: 'api', by: 'api:pss_tok_x', justification: 'ok', policyId: null, policyVersion: null, prevalenceSeen: null };
const byPolicy: ScriptDecision = { method: 'policy', by: 'policy:p1', justification: 'auto', policyId: 'p1', policyVersion: 1, prevalenceSeen: 0.5 };
const authorized = (decision = byApi, hash: string | null = 'sha384-a'): ScriptEvent => ({
  type: 'ScriptAuthorized',
  data: { scriptId: 'sc1', storeId: 'st1', ...decision, authorizedHash: hash, expiresAt: null, reviewDueAt: null, authorizedAt: at.toISOString() },
});
const spec = deciderSpec(scriptDecider);

describe('script decider', () => {
  it('detects a new script as needs_review, or malicious from a threat-list host', () => {
    expect(detected('sha384-a')).toMatchObject({ type: 'ScriptDetected', data: { status: 'needs_review', hash: 'sha384-a', sessionId: 'sess' } });
    const [threat] = scriptDecider.decide(observe('sha384-a', true), scriptDecider.initialState());
    expect(threat.data).toMatchObject({ status: 'malicious' });
  });

  it('records nothing for a sighting with the same hash, or without a hash', () => {
    spec.given([detected('sha384-a')]).when(observe('sha384-a')).thenNothingHappens();
    spec.given([detected('sha384-a')]).when(observe(null)).thenNothingHappens();
  });

  it('records a new hash of an unauthorized script as monitored, not as an unauthorized change', () => {
    const [event] = scriptDecider.decide(observe('sha384-b'), [detected('sha384-a')].reduce(scriptDecider.evolve, scriptDecider.initialState()));
    expect(event).toMatchObject({ type: 'ScriptHashChanged', data: { previousHash: 'sha384-a', hash: 'sha384-b', integrityStatus: 'monitored', unauthorizedChange: false } });
  });

  it('flags a new hash of an authorized script as a mismatch, and holds it when the authorized hash comes back', () => {
    const given = [detected('sha384-a'), authorized()];
    const state = given.reduce(scriptDecider.evolve, scriptDecider.initialState());
    expect(scriptDecider.decide(observe('sha384-b'), state)[0].data).toMatchObject({ integrityStatus: 'mismatch', unauthorizedChange: true, authorizedHash: 'sha384-a' });
    const changed = scriptDecider.decide(observe('sha384-b'), state);
    const back = scriptDecider.decide(observe('sha384-a'), changed.reduce(scriptDecider.evolve, state));
    expect(back.map((event) => event.type)).toEqual(['ScriptHashChanged', 'ScriptAuthorizedContentSeen']);
    expect(back[0].data).toMatchObject({ hash: 'sha384-a', integrityStatus: 'mismatch', unauthorizedChange: false });
  });

  describe('a mismatch the service saw (issue 29: what the public key sends is a claim)', () => {
    const seenFrom = (sessionId: string, client: string | null, hash = 'sha384-a'): ScriptCommand => ({
      ...(observe(hash) as Extract<ScriptCommand, { type: 'ObserveScript' }>),
      sighting: { ...sighting(hash), sessionId, client },
    });
    const held = () => {
      const given = [detected('sha384-a'), authorized()];
      const changed = scriptDecider.decide(observe('sha384-b'), given.reduce(scriptDecider.evolve, scriptDecider.initialState()));
      return [...given, ...changed];
    };
    const seen = (sessionId: string, client: string | null): ScriptEvent => ({
      type: 'ScriptAuthorizedContentSeen',
      data: { scriptId: 'sc1', storeId: 'st1', hash: 'sha384-a', sessionId, client, seenAt: at.toISOString() },
    });
    const back = (): ScriptEvent => scriptDecider.decide(seenFrom('s1', 'c1'), held().reduce(scriptDecider.evolve, scriptDecider.initialState()))[0];

    it('is not cleared by the old hash re-posted from one session, however often', () => {
      spec.given([...held(), back(), seen('s1', 'c1')]).when(seenFrom('s1', 'c1')).thenNothingHappens();
      spec.given([...held(), back(), seen('s1', 'c1')]).when(seenFrom('s1', 'c2')).thenNothingHappens();
    });

    it('is not cleared by many sessions from one client address, nor from clients the gateway could not name', () => {
      spec.given([...held(), back(), seen('s1', 'c1'), seen('s2', 'c1')]).when(seenFrom('s3', 'c1')).then([seen('s3', 'c1')]);
      spec.given([...held(), back(), seen('s1', null), seen('s2', null)]).when(seenFrom('s3', null)).then([seen('s3', null)]);
    });

    it('records no more sessions from the addresses it counted once it has enough of them: a fresh session a batch adds nothing', () => {
      const three = [...held(), back(), seen('s1', 'c1'), seen('s2', 'c1'), seen('s3', 'c1')];
      spec.given(three).when(seenFrom('s4', 'c1')).thenNothingHappens();
      spec.given(three).when(seenFrom('s4', null)).thenNothingHappens();
      const restored: ScriptEvent = { type: 'ScriptIntegrityRestored', data: { scriptId: 'sc1', storeId: 'st1', hash: 'sha384-a', sessions: 4, clients: 2, restoredAt: at.toISOString() } };
      spec.given(three).when(seenFrom('s4', 'c2')).then([seen('s4', 'c2'), restored]);
    });

    it('clears once the authorized content is seen from 3 sessions over 2 client addresses', () => {
      const restored: ScriptEvent = { type: 'ScriptIntegrityRestored', data: { scriptId: 'sc1', storeId: 'st1', hash: 'sha384-a', sessions: 3, clients: 2, restoredAt: at.toISOString() } };
      spec.given([...held(), back(), seen('s1', 'c1'), seen('s2', 'c1')]).when(seenFrom('s3', 'c2')).then([seen('s3', 'c2'), restored]);
      // Cleared: the authorized content is an ordinary sighting again.
      spec.given([...held(), back(), seen('s1', 'c1'), seen('s2', 'c1'), seen('s3', 'c2'), restored]).when(seenFrom('s4', 'c3')).thenNothingHappens();
    });

    it('starts counting again when another unauthorized content shows up meanwhile', () => {
      const again = scriptDecider.decide(seenFrom('s9', 'c9', 'sha384-c'), [...held(), back(), seen('s1', 'c1'), seen('s2', 'c2')].reduce(scriptDecider.evolve, scriptDecider.initialState()));
      expect(again[0].data).toMatchObject({ hash: 'sha384-c', integrityStatus: 'mismatch', unauthorizedChange: true });
      const state = [...held(), back(), seen('s1', 'c1'), seen('s2', 'c2'), ...again].reduce(scriptDecider.evolve, scriptDecider.initialState());
      expect(scriptDecider.decide(seenFrom('s3', 'c3'), state).map((event) => event.type)).toEqual(['ScriptHashChanged', 'ScriptAuthorizedContentSeen']);
    });

    it('clears when someone authorizes the content: the new content is then the match', () => {
      const state = [...held(), authorized(byApi, 'sha384-b')].reduce(scriptDecider.evolve, scriptDecider.initialState());
      expect(state.heldMismatch).toBeNull();
      spec.given([...held(), authorized(byApi, 'sha384-b')]).when(seenFrom('s1', 'c1', 'sha384-b')).thenNothingHappens();
    });
  });

  it('pins the first hash of a script authorized before any hash was known', () => {
    const state = [detected(null), authorized(byApi, null)].reduce(scriptDecider.evolve, scriptDecider.initialState());
    expect(scriptDecider.decide(observe('sha384-z'), state)[0].data).toMatchObject({ integrityStatus: 'match', authorizedHash: 'sha384-z', unauthorizedChange: false });
  });

  describe('hashes of two algorithms (SHA-384 from the SDK, or the SRI token of the page when its re-fetch is refused)', () => {
    const learned = (hash: string): ScriptEvent => ({
      type: 'ScriptHashLearned',
      data: { scriptId: 'sc1', storeId: 'st1', hash, hashSource: 'sdk', sessionId: 'sess', seenAt: at.toISOString() },
    });
    const changed = (previousHash: string, hash: string, authorizedHash: string | null, integrityStatus: 'match' | 'mismatch' | 'monitored'): ScriptEvent => ({
      type: 'ScriptHashChanged',
      data: {
        scriptId: 'sc1',
        storeId: 'st1',
        hash,
        sriHash: null,
        hashSource: 'sdk',
        integrityAttr: null,
        sizeBytes: 100,
        previousHash,
        integrityStatus,
        unauthorizedChange: integrityStatus === 'mismatch',
        authorizedHash,
        src: 'https://cdn.example.com/app.js',
        pageUrl: 'https://loja.example/checkout',
        sessionId: 'sess',
        changedAt: at.toISOString(),
      },
    });

    it('learns the same content under a new algorithm instead of calling it a change, and then knows it', () => {
      spec.given([detected('sha384-a'), authorized()]).when(observe('sha256-s')).then([learned('sha256-s')]);
      spec.given([detected('sha384-a'), authorized(), learned('sha256-s')]).when(observe('sha256-s')).thenNothingHappens();
      spec.given([detected('sha384-a'), authorized(), learned('sha256-s')]).when(observe('sha384-a')).thenNothingHappens();
    });

    it('compares a hash only with the authorized one of its own algorithm', () => {
      spec
        .given([detected('sha384-a'), authorized(), learned('sha256-s')])
        .when(observe('sha256-t'))
        .then([changed('sha256-s', 'sha256-t', 'sha256-s', 'mismatch')]);
      spec
        .given([detected('sha384-a'), authorized(), learned('sha256-s'), changed('sha384-a', 'sha384-b', 'sha384-a', 'mismatch')])
        .when(observe('sha384-a'))
        .then([
          // The authorized content again, but the mismatch seen is held (issue 29).
          { ...changed('sha384-b', 'sha384-a', 'sha384-a', 'mismatch'), data: { ...changed('sha384-b', 'sha384-a', 'sha384-a', 'mismatch').data, unauthorizedChange: false } } as ScriptEvent,
          { type: 'ScriptAuthorizedContentSeen', data: { scriptId: 'sc1', storeId: 'st1', hash: 'sha384-a', sessionId: 'sess', client: 'client-1', seenAt: at.toISOString() } },
        ]);
    });

    it('authorizes the content under every algorithm it was seen with', () => {
      spec
        .given([detected('sha384-a'), learned('sha256-s'), authorized()])
        .when(observe('sha256-t'))
        .then([changed('sha256-s', 'sha256-t', 'sha256-s', 'mismatch')]);
    });
  });

  describe('bytes the browser refused for the page\'s integrity attribute', () => {
    const pinned = 'sha384-pinned';
    /** A sighting of an element's bytes, hashed by the SDK: refused against `refused`, or run. */
    const element = (hash: string, refused: string | null): ScriptCommand => ({
      ...(observe(hash) as Extract<ScriptCommand, { type: 'ObserveScript' }>),
      sighting: { ...sighting(hash), integrityAttr: true, refusedIntegrity: refused },
    });
    const refusal = (hash: string): ScriptEvent => ({
      type: 'ScriptIntegrityRefused',
      data: { scriptId: 'sc1', storeId: 'st1', src: 'https://cdn.example.com/app.js', hash, refusedIntegrity: pinned, pageUrl: 'https://loja.example/checkout', sessionId: 'sess', refusedAt: at.toISOString() },
    });
    const accepted = (hash: string): ScriptEvent => ({ type: 'ScriptIntegrityAccepted', data: { scriptId: 'sc1', storeId: 'st1', hash, acceptedAt: at.toISOString() } });

    it('records a new script and its refusal together, with the real hash', () => {
      const [detection, refused, ...rest] = scriptDecider.decide(element('sha384-served', pinned), scriptDecider.initialState());
      expect(detection).toMatchObject({ type: 'ScriptDetected', data: { hash: 'sha384-served', integrityAttr: true } });
      expect(refused).toEqual(refusal('sha384-served'));
      expect(rest).toEqual([]);
    });

    it('records the refusal of a known script\'s unchanged bytes once', () => {
      spec.given([detected('sha384-a')]).when(element('sha384-a', pinned)).then([refusal('sha384-a')]);
      spec.given([detected('sha384-a'), refusal('sha384-a')]).when(element('sha384-a', pinned)).thenNothingHappens();
    });

    it('calls new content that is refused too a mismatch, and a refusal of it', () => {
      const [change, refused] = scriptDecider.decide(element('sha384-b', pinned), [detected('sha384-a'), refusal('sha384-a')].reduce(scriptDecider.evolve, scriptDecider.initialState()));
      expect(change).toMatchObject({ type: 'ScriptHashChanged', data: { hash: 'sha384-b', integrityStatus: 'mismatch', unauthorizedChange: false } });
      expect(refused).toEqual(refusal('sha384-b'));
    });

    it('ends the refusal when the SDK sees the element\'s bytes run, not on a sighting that cannot tell', () => {
      spec.given([detected('sha384-a'), refusal('sha384-a')]).when(element('sha384-a', null)).then([accepted('sha384-a')]);
      spec.given([detected('sha384-a'), refusal('sha384-a')]).when(observe('sha384-a')).thenNothingHappens();
      spec.given([detected('sha384-a'), refusal('sha384-a')]).when(observe(null)).thenNothingHappens();
    });
  });

  it('refuses an expiry in the past', () => {
    spec.given([detected('sha384-a')]).when({ type: 'AuthorizeScript', decision: byApi, expiresAt: new Date(at.getTime() - 1), at }).thenThrows('validation_error', /future/);
  });

  it('sets review_due_at a week before the expiry, or halfway for a short one', () => {
    const inDays = (days: number) => new Date(at.getTime() + days * 86_400_000);
    const [long] = scriptDecider.decide({ type: 'AuthorizeScript', decision: byApi, expiresAt: inDays(30), at }, [detected('sha384-a')].reduce(scriptDecider.evolve, scriptDecider.initialState()));
    expect(long.data).toMatchObject({ reviewDueAt: inDays(23).toISOString() });
    const [short] = scriptDecider.decide({ type: 'AuthorizeScript', decision: byApi, expiresAt: inDays(2), at }, [detected('sha384-a')].reduce(scriptDecider.evolve, scriptDecider.initialState()));
    expect(short.data).toMatchObject({ reviewDueAt: inDays(1).toISOString() });
  });

  it('never lets a policy overturn a decision taken by hand', () => {
    spec.given([detected('sha384-a'), authorized(byApi)]).when({ type: 'BlockScript', decision: byPolicy, ruleId: 'r1', at }).thenNothingHappens();
    spec.given([detected('sha384-a'), authorized(byApi)]).when({ type: 'RequestReview', decision: byPolicy, at }).thenNothingHappens();
  });

  it('records a person\'s decision by the method its sender states, one of the hand methods, and a policy\'s as the policy\'s', () => {
    const byHand: ScriptDecision = { ...byApi, method: 'manual', by: 'user:u1' };
    spec
      .given([detected('sha384-a')])
      .when({ type: 'AuthorizeScript', decision: byHand, expiresAt: null, at })
      .then([{ type: 'ScriptAuthorized', data: { scriptId: 'sc1', storeId: 'st1', ...byHand, authorizedHash: 'sha384-a', expiresAt: null, reviewDueAt: null, authorizedAt: at.toISOString() } }]);
    spec
      .given([detected('sha384-a')])
      .when({ type: 'BlockScript', decision: byHand, ruleId: 'r1', at })
      .then([{ type: 'ScriptBlocked', data: { scriptId: 'sc1', storeId: 'st1', ...byHand, ruleId: 'r1', blockedAt: at.toISOString() } }]);
    // A policy overturns neither.
    spec.given([detected('sha384-a'), authorized(byHand)]).when({ type: 'BlockScript', decision: byPolicy, ruleId: 'r1', at }).thenNothingHappens();
    // What the service alone records (an expiry, an integrity check), and `policy` naming no policy, no command may claim.
    for (const method of ['expiry', 'integrity', 'system', 'auto', 'policy', 'bogus'] as ScriptDecision['method'][]) {
      spec.given([detected('sha384-a')]).when({ type: 'AuthorizeScript', decision: { ...byApi, method }, expiresAt: null, at }).thenThrows('validation_error', /method must be one of the following values: api, manual/);
      spec.given([detected('sha384-a')]).when({ type: 'BlockScript', decision: { ...byApi, method }, ruleId: 'r1', at }).thenThrows('validation_error', /api, manual/);
    }
    spec.given([detected('sha384-a')]).when({ type: 'RequestReview', decision: { ...byPolicy, method: 'manual' }, at }).thenThrows('validation_error', /method/);
  });

  it('lets a policy decide again over its own decision, but not repeat one already in force', () => {
    spec.given([detected('sha384-a'), authorized(byPolicy)]).when({ type: 'AuthorizeScript', decision: byPolicy, expiresAt: null, at }).thenNothingHappens();
    spec
      .given([detected('sha384-a'), authorized(byPolicy)])
      .when({ type: 'BlockScript', decision: byPolicy, ruleId: 'r1', at })
      .then([{ type: 'ScriptBlocked', data: { scriptId: 'sc1', storeId: 'st1', ...byPolicy, ruleId: 'r1', blockedAt: at.toISOString() } }]);
  });

  it('records the prevalence a policy saw with its decision, and none with the expiry that ends it', () => {
    const expiresAt = new Date('2026-05-02T00:00:00.000Z');
    const byPolicyAuthorized: ScriptEvent = {
      type: 'ScriptAuthorized',
      data: { scriptId: 'sc1', storeId: 'st1', ...byPolicy, authorizedHash: 'sha384-a', expiresAt: expiresAt.toISOString(), reviewDueAt: '2026-05-01T17:00:00.000Z', authorizedAt: at.toISOString() },
    };
    spec.given([detected('sha384-a')]).when({ type: 'AuthorizeScript', decision: byPolicy, expiresAt, at }).then([byPolicyAuthorized]);
    spec
      .given([detected('sha384-a'), byPolicyAuthorized])
      .when({ type: 'ExpireAuthorization', at: expiresAt })
      .then([
        {
          type: 'ScriptReviewRequested',
          data: {
            scriptId: 'sc1',
            storeId: 'st1',
            method: 'expiry',
            by: 'system',
            justification: `Authorization expired at ${expiresAt.toISOString()}`,
            policyId: null,
            policyVersion: null,
            prevalenceSeen: null,
            requestedAt: expiresAt.toISOString(),
          },
        },
      ]);
  });

  it('returns an expired authorization to review once', () => {
    const expiring: ScriptEvent = { ...authorized(), data: { ...(authorized().data as object), expiresAt: '2026-05-02T00:00:00.000Z' } } as ScriptEvent;
    spec.given([detected('sha384-a'), expiring]).when({ type: 'ExpireAuthorization', at }).thenNothingHappens();
    const later = new Date('2026-05-02T00:00:00.000Z');
    const [expired] = scriptDecider.decide({ type: 'ExpireAuthorization', at: later }, [detected('sha384-a'), expiring].reduce(scriptDecider.evolve, scriptDecider.initialState()));
    expect(expired).toMatchObject({ type: 'ScriptReviewRequested', data: { method: 'expiry', by: 'system' } });
    spec.given([detected('sha384-a'), expiring, expired]).when({ type: 'ExpireAuthorization', at: later }).thenNothingHappens();
  });

  it('records each sensitive field once, and makes an unknown script in review suspicious', () => {
    const touched = scriptDecider.decide({ type: 'RecordSensitiveFieldAccess', field: 'card_number', at }, [detected('sha384-a')].reduce(scriptDecider.evolve, scriptDecider.initialState()));
    expect(touched.map((event) => event.type)).toEqual(['ScriptSensitiveFieldAccessed', 'ScriptMarkedSuspicious']);
    spec.given([detected('sha384-a'), ...touched]).when({ type: 'RecordSensitiveFieldAccess', field: 'card_number', at }).thenNothingHappens();
    spec
      .given([detected('sha384-a'), authorized()])
      .when({ type: 'RecordSensitiveFieldAccess', field: 'cvv', at })
      .then([{ type: 'ScriptSensitiveFieldAccessed', data: { scriptId: 'sc1', storeId: 'st1', field: 'cvv', accessedAt: at.toISOString() } }]);
  });

  it('does not know a script never detected', () => {
    spec.given([]).when({ type: 'BlockScript', decision: byApi, ruleId: 'r', at }).thenThrows('not_found');
  });
});
