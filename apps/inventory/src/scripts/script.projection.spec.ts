import { HOST_PREVALENCE, SCRIPTS, type ScriptSightings } from '@pss/contracts';
import { expectReplayedTwice, project, recorded, replayedTwice, storedEventsOf } from '@pss/testkit';
import type { SightingsEvent } from '../ingestion/sightings';
import type { ScriptEvent } from './script.events';
import { ScriptProjection } from './script.projection';

const stored = storedEventsOf<ScriptEvent>('script');

const H1 = 'a'.repeat(64);
const H2 = 'b'.repeat(64);

const detected = (scriptId: string, storeId: string, host: string | null, detectedAt: string) =>
  stored(scriptId, 'ScriptDetected', {
    scriptId,
    storeId,
    orgId: 'o1',
    src: host ? `https://${host}/pay.js` : 'inline:1',
    inline: host === null,
    host,
    type: 'known_third',
    vendorId: 'acme',
    category: 'payment',
    status: 'needs_review',
    gtmContainer: null,
    pageUrl: 'https://loja.example/checkout',
    sessionId: 'x1',
    detectedAt,
    hash: H1,
    sriHash: null,
    hashSource: 'sdk',
    integrityAttr: false,
    sizeBytes: 2048,
  });

const flushed = (storeId: string, scripts: ScriptSightings[]) => {
  const data: SightingsEvent['data'] = { storeId, orgId: 'o1', firstEventAt: 'T0', lastEventAt: 'T9', batches: 1, observations: 1, scripts };
  return recorded(`sightings-${storeId}`, 'SightingsFlushed', data);
};

const manual = { method: 'manual' as const, by: 'api:pss_ab12', justification: 'Payment form of the PSP', policyId: null, policyVersion: null, prevalenceSeen: null };

/** Every script event and flush handled twice in a row, then the whole log again: the same inventory as once. */
describe('ScriptProjection replayed twice', () => {
  it('counts sightings once, verifies only authorized content, and keeps each decision in order', async () => {
    const events = [
      detected('c1', 's1', 'cdn.example', 'T1'),
      stored('c1', 'ScriptRecommended', { scriptId: 'c1', storeId: 's1', recommendation: { policy_id: 'p1', policy_version: 1, action: 'authorize', justification: 'PSP', at: 'T1' } }),
      flushed('s1', [{ scriptId: 'c1', sightings: 3, sessions: 2, lastSeenAt: 'T2' }]),
      stored('c1', 'ScriptAuthorized', { ...manual, scriptId: 'c1', storeId: 's1', authorizedHash: H1, expiresAt: 'T90', reviewDueAt: 'T80', authorizedAt: 'T3' }),
      flushed('s1', [{ scriptId: 'c1', sightings: 2, sessions: 1, lastSeenAt: 'T4' }]),
      stored('c1', 'ScriptHashChanged', {
        scriptId: 'c1',
        storeId: 's1',
        previousHash: H1,
        integrityStatus: 'mismatch',
        unauthorizedChange: true,
        authorizedHash: H1,
        src: 'https://cdn.example/pay.js?v=2',
        pageUrl: 'https://loja.example/checkout',
        sessionId: 'x3',
        changedAt: 'T5',
        hash: H2,
        sriHash: null,
        hashSource: 'sdk',
        integrityAttr: false,
        sizeBytes: 4096,
      }),
      // Seen with content that is not the authorized one: not verified.
      flushed('s1', [{ scriptId: 'c1', sightings: 1, sessions: 1, lastSeenAt: 'T6' }]),
      stored('c1', 'ScriptReviewRequested', { ...manual, method: 'integrity', by: 'system', justification: null, scriptId: 'c1', storeId: 's1', requestedAt: 'T7' }),
      stored('c1', 'ScriptSensitiveFieldAccessed', { scriptId: 'c1', storeId: 's1', field: 'cardnumber', accessedAt: 'T8' }),
      stored('c1', 'ScriptSensitiveFieldAccessed', { scriptId: 'c1', storeId: 's1', field: 'cvv', accessedAt: 'T8' }),
      stored('c1', 'ScriptSensitiveFieldAccessed', { scriptId: 'c1', storeId: 's1', field: 'cardnumber', accessedAt: 'T9' }),
      stored('c1', 'ScriptMarkedSuspicious', { scriptId: 'c1', storeId: 's1', field: 'cvv', markedAt: 'T9' }),
    ];
    await expectReplayedTwice(ScriptProjection, events, SCRIPTS, [
      {
        _id: 'c1',
        org_id: 'o1',
        store_id: 's1',
        src: 'https://cdn.example/pay.js?v=2',
        status: 'suspicious',
        integrity_status: 'monitored',
        current_hash: H2,
        authorized_hash: H1,
        size_bytes: 4096,
        authorization_method: 'integrity',
        authorized_by: 'system',
        justification: null,
        reviewed_at: 'T7',
        expires_at: null,
        review_due_at: null,
        first_seen_at: 'T1',
        last_seen_at: 'T6',
        last_verified_at: 'T4',
        last_hash_change_at: 'T5',
        sightings: 8,
        sessions_count: 6,
        recommendation: null,
        reviews: [
          { action: 'authorize', method: 'manual', by: 'api:pss_ab12', justification: 'Payment form of the PSP', at: 'T3' },
          { action: 'needs_review', method: 'integrity', by: 'system', justification: null, at: 'T7' },
        ],
        sensitive_fields_accessed: ['cardnumber', 'cvv'],
      },
    ]);
  });

  it('counts a new content and a hash of another algorithm as sightings, and content back to the authorized one as verified', async () => {
    const changed = (hash: string, integrityStatus: 'match' | 'mismatch', changedAt: string) =>
      stored('c1', 'ScriptHashChanged', {
        scriptId: 'c1',
        storeId: 's1',
        previousHash: hash === H1 ? H2 : H1,
        integrityStatus,
        unauthorizedChange: integrityStatus === 'mismatch',
        authorizedHash: H1,
        src: 'https://cdn.example/pay.js',
        pageUrl: 'https://loja.example/checkout',
        sessionId: 'x2',
        changedAt,
        hash,
        sriHash: null,
        hashSource: 'sdk',
        integrityAttr: false,
        sizeBytes: 2048,
      });
    const events = [
      detected('c1', 's1', 'cdn.example', 'T1'),
      stored('c1', 'ScriptAuthorized', { ...manual, scriptId: 'c1', storeId: 's1', authorizedHash: H1, expiresAt: null, reviewDueAt: null, authorizedAt: 'T2' }),
      stored('c1', 'ScriptHashLearned', { scriptId: 'c1', storeId: 's1', hash: 'sha256-x', hashSource: 'sri', sessionId: 'x1', seenAt: 'T3' }),
      changed(H2, 'mismatch', 'T4'),
      changed(H1, 'match', 'T5'),
    ];
    await expectReplayedTwice(ScriptProjection, events, SCRIPTS, [
      { current_hash: H1, integrity_status: 'match', last_seen_at: 'T5', last_verified_at: 'T5', sightings: 4, sessions_count: 4 },
    ]);
  });

  it('holds a mismatch through the authorized content seen again and a refusal that ends, until it is restored', async () => {
    const changed = (hash: string, unauthorizedChange: boolean, changedAt: string) =>
      stored('c1', 'ScriptHashChanged', {
        scriptId: 'c1', storeId: 's1', previousHash: hash === H1 ? H2 : H1, integrityStatus: 'mismatch', unauthorizedChange, authorizedHash: H1,
        src: 'https://cdn.example/pay.js', pageUrl: 'https://loja.example/checkout', sessionId: 'x2', changedAt, hash, sriHash: null, hashSource: 'sdk', integrityAttr: true, sizeBytes: 2048,
      });
    const seen = (sessionId: string, client: string, seenAt: string) => stored('c1', 'ScriptAuthorizedContentSeen', { scriptId: 'c1', storeId: 's1', hash: H1, sessionId, client, seenAt });
    const held = [
      detected('c1', 's1', 'cdn.example', 'T1'),
      stored('c1', 'ScriptAuthorized', { ...manual, scriptId: 'c1', storeId: 's1', authorizedHash: H1, expiresAt: null, reviewDueAt: null, authorizedAt: 'T2' }),
      changed(H2, true, 'T3'),
      changed(H1, false, 'T4'),
      seen('x2', 'c1', 'T4'),
      stored('c1', 'ScriptIntegrityRefused', { scriptId: 'c1', storeId: 's1', src: 'https://cdn.example/pay.js', hash: H1, refusedIntegrity: `sha384-${'p'.repeat(64)}`, pageUrl: 'https://loja.example/checkout', sessionId: 'x3', refusedAt: 'T5' }),
      stored('c1', 'ScriptIntegrityAccepted', { scriptId: 'c1', storeId: 's1', hash: H1, acceptedAt: 'T6' }),
      seen('x3', 'c1', 'T7'),
    ];
    const twice = await replayedTwice(ScriptProjection, held);
    expect(twice[SCRIPTS]).toEqual([expect.objectContaining({ current_hash: H1, integrity_status: 'mismatch', last_verified_at: null, last_seen_at: 'T7' })]);
    expect(twice[SCRIPTS][0]).toMatchObject({ _mismatch_held: true });

    const restored = [...held, seen('x4', 'c2', 'T8'), stored('c1', 'ScriptIntegrityRestored', { scriptId: 'c1', storeId: 's1', hash: H1, sessions: 3, clients: 2, restoredAt: 'T8' })];
    const after = await replayedTwice(ScriptProjection, restored);
    expect(after[SCRIPTS]).toEqual([expect.objectContaining({ integrity_status: 'match', last_verified_at: 'T8', _mismatch_held: false })]);
  });

  it('shows a script the browser refuses as a mismatch with both hashes, whatever is decided, until it runs again', async () => {
    const pinned = `sha384-${'p'.repeat(64)}`;
    // Made in log order (positions grow): the projection applies an event once per position.
    const first = detected('c1', 's1', 'cdn.example', 'T1');
    const refused = stored('c1', 'ScriptIntegrityRefused', {
      scriptId: 'c1',
      storeId: 's1',
      src: 'https://cdn.example/pay.js',
      hash: H1,
      refusedIntegrity: `${pinned} sha384-${'q'.repeat(64)}`,
      pageUrl: 'https://loja.example/checkout',
      sessionId: 'x1',
      refusedAt: 'T2',
    });
    const whileRefused = [
      first,
      refused,
      stored('c1', 'ScriptAuthorized', { ...manual, scriptId: 'c1', storeId: 's1', authorizedHash: H1, expiresAt: null, reviewDueAt: null, authorizedAt: 'T3' }),
    ];
    const twice = await replayedTwice(ScriptProjection, whileRefused);
    expect(twice[SCRIPTS]).toEqual([
      expect.objectContaining({ status: 'authorized', integrity_status: 'mismatch', current_hash: H1, sri_hash: pinned, sri_refused: true, sri_refused_at: 'T2' }),
    ]);

    const accepted = stored('c1', 'ScriptIntegrityAccepted', { scriptId: 'c1', storeId: 's1', hash: H1, acceptedAt: 'T4' });
    const after = await project(new ScriptProjection(), [...whileRefused, accepted], 'twice');
    expect(after[SCRIPTS]).toEqual([expect.objectContaining({ status: 'authorized', integrity_status: 'match', sri_hash: null, sri_refused: false, sri_refused_at: null })]);
    const detectedOnly = await project(new ScriptProjection(), [detected('c1', 's1', 'cdn.example', 'T1')], 'once');
    expect(detectedOnly[SCRIPTS]).toEqual([expect.objectContaining({ integrity_status: 'monitored', sri_refused: false, sri_refused_at: null })]);
  });

  it('counts a flush of several scripts once each, shows a blocked script, and knows which stores load from a host', async () => {
    const events = [
      detected('c1', 's1', 'cdn.example', 'T1'),
      detected('c2', 's2', 'cdn.example', 'T1'),
      detected('c3', 's1', null, 'T1'),
      flushed('s1', [
        { scriptId: 'c1', sightings: 4, sessions: 3, lastSeenAt: 'T2' },
        { scriptId: 'c3', sightings: 1, sessions: 1, lastSeenAt: 'T3' },
      ]),
      stored('c2', 'ScriptBlocked', { ...manual, method: 'policy', policyId: 'p9', policyVersion: 2, scriptId: 'c2', storeId: 's2', ruleId: 'r1', blockedAt: 'T4' }),
    ];
    const twice = await replayedTwice(ScriptProjection, events);
    expect(twice[SCRIPTS]).toEqual([
      expect.objectContaining({ _id: 'c1', sightings: 5, sessions_count: 4, last_seen_at: 'T2', last_verified_at: null }),
      expect.objectContaining({
        _id: 'c2',
        status: 'blocked',
        integrity_status: 'blocked',
        authorization_method: 'policy',
        policy_id: 'p9',
        policy_version: 2,
        reviewed_at: 'T4',
        reviews: [{ action: 'block', method: 'policy', by: 'api:pss_ab12', justification: 'Payment form of the PSP', at: 'T4' }],
      }),
      expect.objectContaining({ _id: 'c3', inline: true, host: null, sightings: 2, sessions_count: 2, last_seen_at: 'T3' }),
    ]);
    expect(twice[HOST_PREVALENCE]).toEqual([{ _id: 'cdn.example', store_ids: ['s1', 's2'] }]);
  });

  it('shows the prevalence the deciding policy saw until another decision, and none for an event recorded before it was', async () => {
    const byPolicy = { ...manual, method: 'policy' as const, by: 'policy:p1', policyId: 'p1', policyVersion: 3 };
    const { prevalenceSeen: _absentBefore, ...older } = manual;
    const events = [
      detected('c1', 's1', 'cdn.example', 'T1'),
      detected('c2', 's1', 'cdn.other', 'T1'),
      stored('c1', 'ScriptAuthorized', { ...byPolicy, prevalenceSeen: 0.25, scriptId: 'c1', storeId: 's1', authorizedHash: H1, expiresAt: null, reviewDueAt: null, authorizedAt: 'T2' }),
      stored('c2', 'ScriptAuthorized', { ...byPolicy, prevalenceSeen: 0.5, scriptId: 'c2', storeId: 's1', authorizedHash: H1, expiresAt: null, reviewDueAt: null, authorizedAt: 'T2' }),
      stored('c2', 'ScriptReviewRequested', { ...(older as typeof manual), scriptId: 'c2', storeId: 's1', requestedAt: 'T3' }),
    ];
    const twice = await replayedTwice(ScriptProjection, events);
    expect(twice[SCRIPTS].map((s) => [s._id, s.authorization_method, s.prevalence_seen])).toEqual([
      ['c1', 'policy', 0.25],
      ['c2', 'manual', null],
    ]);
  });
});
