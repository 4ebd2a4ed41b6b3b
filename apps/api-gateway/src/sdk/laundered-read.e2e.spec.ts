import { eventually, ManualClock, sri } from '@pss/testkit';
import { embeddedSuite } from '@pss/embedded/src/testing/embedded-suite';


const SCOPES = ['stores:write', 'scripts:read', 'scripts:review', 'alerts:read', 'reports:read'];
const JQUERY = 'https://code.jquery.example/jquery-3.7.1.min.js';
const SKIMMER = 'https://cdn.analytics-cache.example/s.js';

/** A skimmer that reads the card fields through jQuery's `.val()`: the stack names jQuery first, then the skimmer. */
describe('a sensitive-field read through a library (HTTP, embedded)', () => {
  const clock = new ManualClock('2026-11-23T12:00:00.000Z');
  const suite = embeddedSuite({ clock, scopes: SCOPES });

  const get = async (url: string) => (await suite.get(url)).body;
  const read = (src: string, field: string, callers?: unknown) => ({ kind: 'sensitive_field_access', src, field, ...(callers === undefined ? {} : { callers }) });

  /** A store whose checkout loads jQuery (authorized by the shop), the skimmer and the shop's own app. */
  async function checkoutWithJquery(): Promise<{ store: any; ids: Record<string, string> }> {
    const store = await suite.newStore();
    const app = `https://www.${store.domain}/static/app.js`;
    await suite.service.reportSdk(store.sdk_key, [
      { kind: 'script', src: JQUERY, hash: sri('jquery') },
      { kind: 'script', src: SKIMMER, hash: sri('skimmer') },
      { kind: 'script', src: app, hash: sri('app') },
    ]);
    const list = (await eventually(() => get(`/scripts?store_id=${store.id}`), (answer) => answer.data?.length === 3)).data as any[];
    const ids = Object.fromEntries(list.map((script) => [script.src, script.id]));
    for (const src of [JQUERY, app]) {
      const answer = await suite.call('POST', `/scripts/${ids[src]}/authorize`, { justification: 'Checkout library, reviewed' });
      expect(answer.body.status).toBe('authorized');
    }
    return { store, ids: { ...ids, app } };
  }

  it('opens SENSITIVE_FIELD_ACCESS naming the skimmer behind authorized jQuery, and records the read on both', async () => {
    const { store, ids } = await checkoutWithJquery();
    const answer = await suite.service.reportSdk(store.sdk_key, [read(JQUERY, 'card_number', [SKIMMER, ids.app]), read(JQUERY, 'cvv', [SKIMMER])]);
    expect(answer.body).toEqual({ accepted: 2, rejected: 0, rejections: [] });

    // One alert for the skimmer, counted for each field it read.
    const alerts = (await eventually(() => get(`/alerts?store_id=${store.id}`), (found) => found.data?.[0]?.occurrences === 2)).data as any[];
    expect(alerts).toEqual([
      expect.objectContaining({
        type: 'SENSITIVE_FIELD_ACCESS',
        severity: 'high',
        source: SKIMMER,
        occurrences: 2,
        details: expect.objectContaining({ script_id: ids[SKIMMER], src: SKIMMER, field: 'card_number', read_via: [JQUERY] }),
      }),
    ]);
    const skimmer = await get(`/scripts/${ids[SKIMMER]}`);
    expect(skimmer).toMatchObject({ status: 'suspicious' });
    expect([...skimmer.sensitive_fields_accessed].sort()).toEqual(['card_number', 'cvv']);
    expect((await get(`/scripts/${ids[JQUERY]}`)).sensitive_fields_accessed.sort()).toEqual(['card_number', 'cvv']);
    expect((await get(`/scripts/${ids[ids.app]}`)).sensitive_fields_accessed).toEqual(['card_number']);

    const report = await eventually(() => get(`/reports/pci?store_id=${store.id}`), (found) => found.data?.data_access?.length === 5);
    const rows = report.data.data_access.map((row: any) => [row.src, row.field_class, row.script_authorized]);
    expect(rows).toEqual(
      expect.arrayContaining([
        [SKIMMER, 'card_number', false],
        [SKIMMER, 'cvv', false],
        [JQUERY, 'cvv', true],
      ]),
    );
  });

  it('opens nothing when every script on the stack is authorized, as a read by jQuery alone', async () => {
    const { store, ids } = await checkoutWithJquery();
    await suite.service.reportSdk(store.sdk_key, [read(JQUERY, 'card_number', [ids.app]), read(JQUERY, 'cvv')]);
    await eventually(() => get(`/scripts/${ids[ids.app]}`), (script) => script.sensitive_fields_accessed?.length === 1);
    // A direct read by the skimmer, recorded after those two, shows they were processed without an alert.
    await suite.service.reportSdk(store.sdk_key, [read(SKIMMER, 'expiry')]);
    const alerts = (await eventually(() => get(`/alerts?store_id=${store.id}`), (found) => found.data?.length >= 1)).data as any[];
    expect(alerts.map((alert) => [alert.source, alert.details.field, alert.details.read_via])).toEqual([[SKIMMER, 'expiry', undefined]]);
  });

  it('refuses a read whose callers are not a short list of http(s) URLs, and takes the rest of the batch', async () => {
    const store = await suite.newStore();
    const answer = await suite.service.reportSdk(store.sdk_key, [
      read(JQUERY, 'cvv', ['javascript:steal()']),
      read(JQUERY, 'cvv', Array.from({ length: 9 }, (_, i) => `https://cdn${i}.example/a.js`)),
      read(JQUERY, 'cvv', SKIMMER),
      read(JQUERY, 'cvv', [SKIMMER]),
    ]);
    const reason = 'callers must be a list of at most 8 http(s) URLs';
    expect(answer.body).toEqual({ accepted: 1, rejected: 3, rejections: [0, 1, 2].map((index) => ({ index, reason })) });
  });
});
