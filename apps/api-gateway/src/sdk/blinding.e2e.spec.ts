import { EVENT_STORE, type EventStore } from '@pss/event-store';
import { ManualClock, sri } from '@pss/testkit';
import { DEFAULT_NEW_SCRIPT_LIMITS } from '@pss/inventory/src/ingestion/store-budget';
import { embeddedSuite } from '@pss/embedded/src/testing/embedded-suite';

const SCOPES = ['stores:write', 'stores:read', 'scripts:read'];
const { perBatch, burst, clientShare } = DEFAULT_NEW_SCRIPT_LIMITS;
/** As many batches of junk as a store has shares: from as many addresses, they spend its whole budget. */
const SHARES = Math.round(1 / clientShare);

/**
 * Issue 29, item 5: the public key lets anyone post new scripts, so one address (an IPv6 /64) may spend only its
 * share of a store's budget of them, and a script reported from two addresses or reading a card field is never
 * deferred, however many addresses spent the budget.
 */
describe('SDK new-script budget shared by client address (HTTP, embedded)', () => {
  const clock = new ManualClock('2026-09-01T10:00:00.000Z');
  const suite = embeddedSuite({ clock, scopes: SCOPES });

  let junkCount = 0;
  const junk = () => Array.from({ length: perBatch }, () => ({ kind: 'script', src: `https://junk.example.net/${++junkCount}.js`, hash: sri(`junk ${junkCount}`) }));
  const newScript = (name: string) => ({ kind: 'script', src: `https://cdn.${name}.example.org/${name}.js`, hash: sri(name) });
  const send = (key: string, observations: unknown[], from: string) => suite.service.reportSdk(key, observations, {}, from);
  /** Whether the store's inventory detected the script (its list pages through hundreds of junk ones). */
  const recorded = async (storeId: string, name: string) =>
    (await suite.service.app.get<EventStore>(EVENT_STORE).readAll({ filter: { eventTypes: ['ScriptDetected'] }, maxCount: 100_000 })).some((event) => {
      const data = event.data as { storeId: string; src: string };
      return data.storeId === storeId && data.src === newScript(name).src;
    });

  it("defers one address's junk beyond its share, and records another address's new script", async () => {
    const store = await suite.newStore();
    const answers = [];
    for (let n = 0; n < SHARES; n += 1) answers.push(await send(store.sdk_key, junk(), '203.0.113.66'));
    expect(answers.reduce((sum, answer) => sum + answer.body.accepted, 0)).toBe(burst * clientShare);
    expect(answers[0].body.rejections[0].reason).toMatch(/^new script not recorded: this address's share of this store's limit of new scripts is spent; report it again after \d+ seconds$/);

    expect((await send(store.sdk_key, [newScript('checkout-widget')], '198.51.100.7')).body).toEqual({ accepted: 1, rejected: 0, rejections: [] });
    expect(await recorded(store.id, 'checkout-widget')).toBe(true);
  });

  it('counts every address of one IPv6 /64 as one', async () => {
    const store = await suite.newStore();
    let accepted = 0;
    for (let n = 1; n <= SHARES; n += 1) accepted += (await send(store.sdk_key, junk(), `2001:db8:66:1::${n.toString(16)}`)).body.accepted;
    expect(accepted).toBe(burst * clientShare);
    expect((await send(store.sdk_key, [newScript('pay-button')], '2001:db8:66:2::1')).body).toMatchObject({ accepted: 1, rejected: 0 });
  });

  it('never defers a script reading a card field, nor one a second address reports, when many addresses spent the store budget', async () => {
    const store = await suite.newStore();
    for (let n = 1; n <= SHARES; n += 1) await send(store.sdk_key, junk(), `203.0.113.${n}`);
    const skimmer = newScript('skimmer');
    const read = { kind: 'sensitive_field_access', src: skimmer.src, field: 'card_number' };
    const widget = newScript('late-widget');

    const first = await send(store.sdk_key, [widget, skimmer, read], '198.51.100.7');
    expect(first.body).toMatchObject({ accepted: 2, rejected: 1, rejections: [{ index: 0, reason: expect.stringMatching(/^new script not recorded: this store's limit/) }] });
    expect(await recorded(store.id, 'skimmer')).toBe(true);
    expect(await recorded(store.id, 'late-widget')).toBe(false);

    expect((await send(store.sdk_key, [widget], '198.51.100.8')).body).toEqual({ accepted: 1, rejected: 0, rejections: [] });
    expect(await recorded(store.id, 'late-widget')).toBe(true);
  });
});
