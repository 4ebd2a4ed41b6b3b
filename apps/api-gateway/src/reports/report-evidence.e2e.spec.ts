import { eventually, sri } from '@pss/testkit';
import { EmbeddedHarness } from '@pss/embedded/src/testing/embedded-harness';
import { ReportFacts } from '@pss/reports/src/facts/report-facts';

const SCOPES = ['stores:write', 'scripts:read', 'reports:read', 'reports:generate'];

/** Issue 29, items 7 and 8: the evidence chain as an assessor checks it, and reports that miss no committed fact. */
describe('PCI report evidence (HTTP, embedded)', () => {
  let service: EmbeddedHarness;
  let token: string;

  const get = (url: string) => service.request('GET', `/api/v1${url}`, { token });

  beforeAll(async () => {
    service = await EmbeddedHarness.start();
    ({ token } = await service.tenant(SCOPES, { plan: 'growth', 'billing-mode': 'processor' }));
  });
  afterAll(() => service?.close());

  it('keeps the chain that docs/reports.md says to check whole when snapshots are made at once', async () => {
    const store = await service.createStore(token);
    await service.reportSdk(store.sdk_key, [{ kind: 'script', src: 'https://cdn.chain.example/a.js', hash: sri('a') }]);

    const made = await Promise.all(Array.from({ length: 12 }, () => get(`/reports/pci?store_id=${store.id}`)));
    const listed = (await get(`/reports/pci/snapshots?store_id=${store.id}&limit=100`)).body.data as Array<{ id: string; sha256: string; previous_sha256: string | null; sequence: number }>;

    expect(made.map((answer) => answer.status)).toEqual(Array(12).fill(200));
    const oldestFirst = [...listed].reverse();
    expect(oldestFirst.map((snapshot) => snapshot.sequence)).toEqual(Array.from({ length: 12 }, (_, index) => index + 1));
    // The documented check: each previous_sha256 is the sha256 of the one before it.
    const breaks = oldestFirst.filter((snapshot, index) => snapshot.previous_sha256 !== (index ? oldestFirst[index - 1].sha256 : null));
    expect(breaks).toEqual([]);
    expect(new Set(made.map((answer) => answer.body.sequence))).toEqual(new Set(oldestFirst.map((snapshot) => snapshot.sequence)));
    expect(await service.ops('reports.verify-chain', { store: store.id })).toEqual({
      store_id: store.id,
      snapshots: 12,
      expired: 0,
      head_sha256: oldestFirst[11].sha256,
      ok: true,
      breaks: [],
    });
  });

  it('lists a store\'s snapshots page by page in chain order', async () => {
    const store = await service.createStore(token);
    for (let made = 0; made < 3; made += 1) await get(`/reports/pci?store_id=${store.id}`);

    const first = await get(`/reports/pci/snapshots?store_id=${store.id}&limit=2`);
    const second = await get(`/reports/pci/snapshots?store_id=${store.id}&limit=2&cursor=${first.body.next_cursor}`);

    expect([...first.body.data, ...second.body.data].map((snapshot: { sequence: number }) => snapshot.sequence)).toEqual([3, 2, 1]);
    expect(second.body.next_cursor).toBeNull();
  });

  it('refuses verify-chain without a store id', async () => {
    await expect(service.ops('reports.verify-chain', {})).rejects.toMatchObject({ code: 'validation_error' });
  });

  it('lists the scripts GET /scripts shows in a report asked for right after, though reports\' history lags', async () => {
    const store = await service.createStore(token);
    const facts = service.app.get(ReportFacts);
    const record = facts.record.bind(facts);
    // Reports' own history a good half second behind inventory's read models, as on a busy replica.
    const lagging = jest.spyOn(facts, 'record').mockImplementation(async (fact) => {
      await new Promise((resolve) => setTimeout(resolve, 600));
      return record(fact);
    });
    try {
      await service.reportSdk(store.sdk_key, [
        { kind: 'script', src: 'https://cdn.lag.example/one.js', hash: sri('one') },
        { kind: 'script', src: 'https://cdn.lag.example/two.js', hash: sri('two') },
      ]);
      const inventory = (await eventually(() => get(`/scripts?store_id=${store.id}`), (answer) => answer.body.data?.length === 2)).body.data;

      const report = await get(`/reports/pci?store_id=${store.id}`);

      expect(report.status).toBe(200);
      expect(report.body.data.scripts.map((script: { id: string }) => script.id).sort()).toEqual(inventory.map((script: { id: string }) => script.id).sort());
      expect(report.body.data.summary_643.total).toBe(2);
    } finally {
      lagging.mockRestore();
    }
  });
});

/** Issue 29, item 2: what one organization's loop of report requests may cost the service. */
describe('the cost of on-demand reports (HTTP, embedded)', () => {
  let service: EmbeddedHarness;
  let token: string;
  let store: any;

  const get = (url: string, as = token) => service.request('GET', `/api/v1${url}`, { token: as });
  const snapshotsOf = async (storeId: string, as = token) => (await get(`/reports/pci/snapshots?store_id=${storeId}&limit=100`, as)).body.data as unknown[];

  beforeAll(async () => {
    service = await EmbeddedHarness.start({ env: { REPORT_GENERATIONS_CONCURRENT: '2', REPORT_GENERATIONS_PER_MINUTE: '3' } });
    ({ token } = await service.tenant(['stores:write', 'reports:read'], { plan: 'growth', 'billing-mode': 'processor' }));
    store = await service.createStore(token);
  });
  afterAll(() => service?.close());

  it('makes nothing for HEAD', async () => {
    const probed = await service.request('HEAD', `/api/v1/reports/pci?store_id=${store.id}`, { token });

    expect(probed.status).toBe(405);
    expect(probed.headers.allow).toBe('GET');
    expect(await snapshotsOf(store.id)).toEqual([]);
  });

  it('answers 429 with Retry-After past an organization\'s reports per minute, and leaves other organizations alone', async () => {
    const answers = [];
    for (let call = 0; call < 4; call += 1) answers.push(await get(`/reports/pci?store_id=${store.id}`));
    const other = await service.tenant(['stores:write', 'reports:read'], { plan: 'growth', 'billing-mode': 'processor' });
    const otherStore = await service.createStore(other.token);

    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 429]);
    expect(answers[3].body).toEqual({ error: { code: 'rate_limited', message: 'At most 3 new reports per minute per organization' } });
    expect(Number(answers[3].headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(answers[3].headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(await snapshotsOf(store.id)).toHaveLength(3);
    expect((await get(`/reports/pci?store_id=${otherStore.id}`, other.token)).status).toBe(200);
  });

  it('answers 429 past an organization\'s reports in the making at once', async () => {
    const other = await service.tenant(['stores:write', 'reports:read'], { plan: 'growth', 'billing-mode': 'processor' });
    const otherStore = await service.createStore(other.token);

    const answers = await Promise.all([1, 2, 3].map(() => get(`/reports/pci?store_id=${otherStore.id}`, other.token)));

    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 200, 429]);
    expect(answers.find((answer) => answer.status === 429)?.headers['retry-after']).toBe('1');
  });
});
