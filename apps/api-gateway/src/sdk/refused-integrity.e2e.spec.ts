import { eventually, ManualClock, sri } from '@pss/testkit';
import { embeddedSuite } from '@pss/embedded/src/testing/embedded-suite';


const SCOPES = ['stores:read', 'stores:write', 'scripts:read', 'scripts:review', 'alerts:read'];
const VENDOR = 'https://cdn.vendor.example/checkout.js';
const SERVED = sri('vendor v2: swapped upstream');
const PINNED = sri('vendor v1: what the shop pinned');

/** What the SDK reports of a pinned vendor script, the bytes it read from the element's URL, and the refusal if any. */
const vendorScript = (refused?: string, hash = SERVED) => ({
  kind: 'script',
  src: VENDOR,
  hash,
  hash_source: 'sdk',
  integrity_attr: true,
  size_bytes: 120,
  ...(refused ? { refused_integrity: refused } : {}),
});

describe('a script the browser refused for its integrity attribute (HTTP, embedded)', () => {
  const clock = new ManualClock('2026-05-04T15:00:00.000Z');
  const suite = embeddedSuite({ clock, scopes: SCOPES });

  const scripts = async (storeId: string, query = ''): Promise<any[]> =>
    (await suite.get(`/scripts?store_id=${storeId}${query}`)).body.data;
  const alerts = async (storeId: string): Promise<any[]> => (await suite.get(`/alerts?store_id=${storeId}`)).body.data;

  it('shows its real hash beside the pinned one as a mismatch, opens an alert, and clears when the browser runs it again', async () => {
    const store = await suite.newStore({});
    const answer = await suite.service.reportSdk(store.sdk_key, [vendorScript(PINNED)]);
    expect(answer.body).toEqual({ accepted: 1, rejected: 0, rejections: [] });

    const [script] = await scripts(store.id);
    expect(script).toMatchObject({
      src: VENDOR,
      status: 'needs_review',
      integrity_status: 'mismatch',
      current_hash: SERVED,
      sri_hash: PINNED,
      integrity_attr: true,
      sri_refused: true,
      sri_refused_at: clock.now().toISOString(),
    });
    expect((await scripts(store.id, '&integrity_status=mismatch')).map((s) => s.id)).toEqual([script.id]);

    const [alert] = await eventually(() => alerts(store.id), (list) => list.length > 0, { timeoutMs: 10_000, intervalMs: 50 });
    expect(alert).toMatchObject({
      type: 'SCRIPT_INTEGRITY_MISMATCH',
      severity: 'high',
      status: 'open',
      source: VENDOR,
      details: expect.objectContaining({ script_id: script.id, new_hash: SERVED, refused_integrity: PINNED, sri_refused: true, reason: expect.stringContaining('browser refused') }),
    });

    // The same refusal again is a sighting; authorizing the served content does not make the page run it.
    clock.advance(1000);
    await suite.service.reportSdk(store.sdk_key, [vendorScript(PINNED)]);
    const authorized = await suite.call('POST', `/scripts/${script.id}/authorize`, { justification: 'Vendor v2, checked with the vendor' });
    expect(authorized.body).toMatchObject({ status: 'authorized', integrity_status: 'mismatch', sri_refused: true });

    // The shop pins the served content: the browser runs it, the SDK reports no refusal.
    clock.advance(1000);
    await suite.service.reportSdk(store.sdk_key, [vendorScript()]);
    expect((await scripts(store.id))[0]).toMatchObject({ integrity_status: 'match', sri_refused: false, sri_refused_at: null, sri_hash: null });
    expect(await alerts(store.id)).toHaveLength(1);
  });

  it('refuses a refusal the SDK could not have seen, with its reason, and keeps the rest of the batch', async () => {
    const store = await suite.newStore({});
    const answer = await suite.service.reportSdk(store.sdk_key, [
      vendorScript(SERVED),
      { ...vendorScript(PINNED), integrity_attr: false },
      { ...vendorScript('sha384-short'), src: 'https://cdn.vendor.example/other.js' },
      { kind: 'script', src: 'https://cdn.vendor.example/plain.js', hash: SERVED },
    ]);
    expect(answer.body).toEqual({
      accepted: 1,
      rejected: 3,
      rejections: [
        { index: 0, reason: 'refused_integrity names the hash: the browser ran that content' },
        { index: 1, reason: "refused_integrity needs the SDK's own hash of an external script whose element has an integrity attribute" },
        { index: 2, reason: 'refused_integrity must be 1 to 4 SRI hashes of one algorithm, separated by spaces' },
      ],
    });
    expect(await scripts(store.id)).toEqual([expect.objectContaining({ src: 'https://cdn.vendor.example/plain.js', integrity_status: 'monitored', sri_refused: false })]);
  });
});
