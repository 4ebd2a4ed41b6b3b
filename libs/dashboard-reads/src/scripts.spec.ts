import { PAYMENT_PAGES, SCRIPT_HISTORY, SCRIPTS, type ScriptDocument } from '@pss/contracts';
import { DomainError } from '@pss/kernel';
import { MemoryReadStore, type AnyDocument, type FindOptions } from '@pss/read-store';
import { blocks, decisionNeeded, inventoryCsv, inventoryPage, PAGE_HISTORY_CHUNKS, reviewInbox, scriptDetails } from './scripts';

const NOW = new Date('2026-11-20T12:00:00.000Z');
const idOf = (n: number) => `0190a4b2-8d3c-7e1f-9a2b-${String(n).padStart(12, '0')}`;

function script(n: number, fields: Partial<ScriptDocument> = {}): ScriptDocument {
  return {
    _id: idOf(n),
    org_id: 'org',
    store_id: 's1',
    src: `https://cdn.example/${n}.js`,
    type: 'known_third',
    category: 'payment',
    status: 'trusted',
    integrity_status: 'monitored',
    current_hash: `sha384-${n}`,
    authorized_hash: null,
    sri_hash: null,
    hash_source: 'sdk',
    integrity_attr: false,
    size_bytes: 100,
    vendor_id: 'acme',
    gtm_container: null,
    authorization_method: null,
    authorized_by: null,
    justification: null,
    policy_id: null,
    policy_version: null,
    reviewed_at: null,
    expires_at: null,
    review_due_at: null,
    first_seen_at: new Date(Date.UTC(2026, 10, 1) + n * 1000).toISOString(),
    last_seen_at: '2026-11-19T00:00:00.000Z',
    last_verified_at: null,
    last_hash_change_at: null,
    sightings: n,
    sessions_count: 1,
    host: 'cdn.example',
    inline: false,
    reviews: [],
    recommendation: null,
    sensitive_fields_accessed: [],
    ...fields,
  };
}

async function inventory(scripts: ScriptDocument[]): Promise<MemoryReadStore> {
  const store = new MemoryReadStore();
  for (const doc of scripts) await store.collection<ScriptDocument>(SCRIPTS).insertOne(doc);
  return store;
}

const ids = (page: { scripts: ScriptDocument[] }) => page.scripts.map((doc) => doc._id);
const history = (n: number, pages: string[]) => ({ _id: idOf(n), org_id: 'org', store_id: 's1', first_seen_at: script(n).first_seen_at, hashes: [], current_hash: null, current_seen_at: null, pages });

describe('the review inbox', () => {
  const inDays = (days: number) => new Date(NOW.getTime() + days * 86_400_000).toISOString();
  const scripts = [
    script(1, { status: 'needs_review' }),
    script(2, { status: 'suspicious' }),
    script(3, { status: 'malicious' }),
    script(4, { status: 'authorized', integrity_status: 'mismatch' }),
    script(5, { status: 'authorized', expires_at: inDays(14) }),
    script(6, { status: 'authorized', expires_at: inDays(15) }),
    script(7, { status: 'authorized', integrity_status: 'match' }),
    script(8, { status: 'blocked' }),
    script(9, { status: 'trusted' }),
    script(10, { status: 'needs_review', org_id: 'other' }),
    script(11, { status: 'needs_review', store_id: 's2' }),
  ];

  it('holds only what needs a decision, of the organization, newest first, a page at a time by cursor', async () => {
    const store = await inventory(scripts);
    const first = await reviewInbox(store, 'org', undefined, NOW, { limit: 4 });
    expect(ids(first)).toEqual([idOf(11), idOf(5), idOf(4), idOf(3)]);
    const second = await reviewInbox(store, 'org', undefined, NOW, { limit: 4, cursor: first.next_cursor! });
    expect(ids(second)).toEqual([idOf(2), idOf(1)]);
    expect(second.next_cursor).toBeNull();
    expect(ids(await reviewInbox(store, 'org', 's2', NOW))).toEqual([idOf(11)]);
  });

  it('says why each script is there, as the query chose it', () => {
    expect(scripts.map((doc) => decisionNeeded(doc, NOW))).toEqual(['needs_review', 'suspicious', 'malicious', 'integrity', 'expiring', null, null, null, null, 'needs_review', 'needs_review']);
  });
});

describe('the inventory', () => {
  it("pages with GET /scripts's filters and checks them as it does, naming the field", async () => {
    const store = await inventory([script(1, { status: 'needs_review' }), script(2, { type: 'first_party' }), script(3), script(4, { org_id: 'other' })]);
    const first = await inventoryPage(store, 'org', { store_id: 's1' }, { limit: 2 });
    expect(ids(first)).toEqual([idOf(3), idOf(2)]);
    expect(ids(await inventoryPage(store, 'org', { store_id: 's1' }, { limit: 2, cursor: first.next_cursor! }))).toEqual([idOf(1)]);
    expect(ids(await inventoryPage(store, 'org', { status: 'needs_review' }))).toEqual([idOf(1)]);
    expect(ids(await inventoryPage(store, 'org', { type: 'first_party' }))).toEqual([idOf(2)]);
    const refused = await inventoryPage(store, 'org', { status: 'pending', category: '' }).catch((error: DomainError) => error);
    expect(refused).toBeInstanceOf(DomainError);
    expect((refused as DomainError).details?.map((detail) => detail.field)).toEqual(['status', 'category']);
    await expect(inventoryPage(store, 'org', {}, { cursor: 'nope!' })).rejects.toMatchObject({ code: 'validation_error', details: [{ field: 'cursor' }] });
  });

  it('keeps to the scripts reported on a payment page when one is chosen', async () => {
    const store = await inventory([script(1), script(2), script(3)]);
    await store.collection<AnyDocument>(PAYMENT_PAGES).insertOne({ _id: 'pp1', org_id: 'org', store_id: 's1', url_pattern: '/checkout/**' });
    for (const doc of [history(1, ['/checkout/pay']), history(2, ['/cart']), history(3, ['/cart', '/checkout/done'])]) await store.collection(SCRIPT_HISTORY).insertOne(doc);
    expect(ids(await inventoryPage(store, 'org', { store_id: 's1', payment_page_id: 'pp1' }))).toEqual([idOf(3), idOf(1)]);
    // '/checkout/**' is a glob, not a pattern of the query's: '/checkoutX' and '/checkout.' are other pages.
    await store.collection(SCRIPT_HISTORY).insertOne(history(4, ['/checkoutX/pay', '/Checkout/pay']));
    expect(ids(await inventoryPage(store, 'org', { store_id: 's1', payment_page_id: 'pp1' }))).toEqual([idOf(3), idOf(1)]);
    await expect(inventoryPage(store, 'other', { store_id: 's1', payment_page_id: 'pp1' })).rejects.toMatchObject({ details: [{ field: 'payment_page_id' }] });
    await expect(inventoryPage(store, 'org', { payment_page_id: 'pp1' })).rejects.toMatchObject({ details: [{ field: 'payment_page_id' }] });
  });

  it("pages a payment page's scripts by GET /scripts's cursor, reading a bounded chunk of the store's histories at a time", async () => {
    // 600 scripts on the checkout, one in 50 to review: the filters together leave most chunks empty.
    const many = Array.from({ length: 600 }, (_, n) => script(n + 1, { status: (n + 1) % 50 === 0 ? 'needs_review' : 'trusted' }));
    const store = await inventory([...many, script(601, { org_id: 'other' })]);
    await store.collection<AnyDocument>(PAYMENT_PAGES).insertOne({ _id: 'pp1', org_id: 'org', store_id: 's1', url_pattern: '/checkout' });
    for (const doc of many) await store.collection(SCRIPT_HISTORY).insertOne(history(Number(doc._id.slice(-12)), ['/checkout']));
    const histories = store.collection<AnyDocument>(SCRIPT_HISTORY);
    await histories.insertOne({ ...history(601, ['/checkout']), org_id: 'other' });
    const reads: number[] = [];
    for (const method of ['find', 'findFrozen'] as const) {
      const read = histories[method].bind(histories);
      jest.spyOn(histories, method).mockImplementation(async (filter, options?: FindOptions) => {
        const found = await read(filter, options);
        reads.push(found.length);
        return found as never;
      });
    }
    jest.spyOn(store, 'collection').mockImplementation((name) => (name === SCRIPT_HISTORY ? histories : MemoryReadStore.prototype.collection.call(store, name)) as never);

    const walk = async (filter: Parameters<typeof inventoryPage>[2]) => {
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        reads.length = 0;
        const page = await inventoryPage(store, 'org', filter, { cursor, limit: 10 });
        // Each request reads at most PAGE_HISTORY_CHUNKS chunks of one page and one more each.
        expect(reads.length).toBeGreaterThan(0);
        expect(reads.length).toBeLessThanOrEqual(PAGE_HISTORY_CHUNKS);
        for (const read of reads) expect(read).toBeLessThanOrEqual(11);
        seen.push(...ids(page));
        cursor = page.next_cursor ?? undefined;
      } while (cursor);
      return seen;
    };
    const newestFirst = (docs: ScriptDocument[]) => docs.map((doc) => doc._id).reverse();
    expect(await walk({ store_id: 's1', payment_page_id: 'pp1' })).toEqual(newestFirst(many));
    expect(await walk({ store_id: 's1', payment_page_id: 'pp1', status: 'needs_review' })).toEqual(newestFirst(many.filter((doc) => doc.status === 'needs_review')));
    // A page cut short by the chunks says where to go on, and its cursor is GET /scripts's.
    const first = await inventoryPage(store, 'org', { store_id: 's1', payment_page_id: 'pp1', status: 'needs_review' }, { limit: 10 });
    expect(ids(first)).toEqual([idOf(600)]);
    expect(ids(await inventoryPage(store, 'org', { store_id: 's1', status: 'needs_review' }, { cursor: first.next_cursor!, limit: 1 }))).toEqual([idOf(550)]);
  });

  it('exports every page of the filter as CSV, formula cells neutralized', async () => {
    const many = Array.from({ length: 103 }, (_, n) => script(n + 1, { justification: n === 0 ? '=HYPERLINK("x")' : null }));
    const chunks: string[] = [];
    for await (const chunk of await inventoryCsv(await inventory(many), 'org', { store_id: 's1' })) chunks.push(chunk);
    await expect(inventoryCsv(await inventory([]), 'org', { type: 'x' })).rejects.toMatchObject({ details: [{ field: 'type' }] });
    const lines = chunks.join('').split('\r\n').filter(Boolean);
    expect(lines[0]).toBe('\uFEFFid,store_id,src,type,category,vendor_id,status,integrity_status,current_hash,sri_hash,size_bytes,first_seen_at,last_seen_at,sightings,sessions_count,authorized_by,justification,expires_at');
    expect(lines).toHaveLength(104);
    expect(lines[1].startsWith(`${idOf(103)},s1,https://cdn.example/103.js,known_third,payment,acme,trusted,monitored,sha384-103,,100,`)).toBe(true);
    expect(lines[103]).toContain(`"'=HYPERLINK(""x"")"`);
  });
});

describe("a script's details", () => {
  it("are the organization's only, with the store's block rules that cover the script", async () => {
    const store = await inventory([script(1)]);
    await store.collection<AnyDocument>('stores').insertOne({ _id: 's1', org_id: 'org', timezone: 'America/Sao_Paulo' });
    const rules = [
      { _id: 'r1', org_id: 'org', store_id: 's1', type: 'block', target: 'domain', value: 'example', active: true },
      { _id: 'r2', org_id: 'org', store_id: 's1', type: 'block', target: 'domain', value: 'other.example', active: true },
      { _id: 'r3', org_id: 'org', store_id: 's1', type: 'block', target: 'url', value: 'https://cdn.example/1.js', active: false },
    ];
    for (const rule of rules) await store.collection('rules').insertOne(rule);
    expect((await scriptDetails(store, 'org', idOf(1)))?.blockedBy.map((rule) => rule._id)).toEqual(['r1']);
    expect(await scriptDetails(store, 'other', idOf(1))).toBeNull();
  });

  it('are blocked as the SDK blocks: a hash for inline scripts, a URL without its query, a host and its subdomains', () => {
    const external = { inline: false, src: 'https://js.cdn.example/a.js?v=1', host: 'js.cdn.example', current_hash: 'h' };
    expect(blocks({ target: 'url', value: 'https://js.cdn.example/a.js' }, external)).toBe(true);
    expect(blocks({ target: 'domain', value: 'CDN.example' }, external)).toBe(true);
    expect(blocks({ target: 'domain', value: 'dn.example' }, external)).toBe(false);
    expect(blocks({ target: 'hash', value: 'h' }, external)).toBe(false);
    expect(blocks({ target: 'hash', value: 'h' }, { inline: true, src: 'inline:1', host: null, current_hash: 'h' })).toBe(true);
  });
});
