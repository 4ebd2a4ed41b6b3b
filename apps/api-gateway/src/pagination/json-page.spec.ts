import { toResource } from '@pss/contracts';
import { MemoryReadStore, type Document } from '@pss/read-store';
import { jsonPage, JsonRendering } from './json-page';
import { paginate } from './paginate';

/** Ids and times as the API's documents have them: its cursors accept nothing else. */
const idOf = (n: number) => `0190a4b2-8d3c-7e1f-9a2b-00000000000${n}`;

type Item = Document & { org_id: string; seen_at: string; name: string; tags: string[]; _position: number };

describe('jsonPage', () => {
  async function items(): Promise<MemoryReadStore> {
    const store = new MemoryReadStore();
    await store.ensureIndexes('items', [{ key: { org_id: 1, seen_at: -1, _id: -1 } }]);
    for (let n = 0; n < 7; n += 1) {
      const item: Item = { _id: idOf(n), org_id: n === 3 ? 'other' : 'org', seen_at: `2026-01-0${1 + (n % 3)}T00:00:00.000Z`, name: `“item” ${n}\n`, tags: [`t${n}`], _position: n };
      await store.collection<Item>('items').insertOne(item);
    }
    return store;
  }

  it('writes the bytes Fastify writes for paginate’s page, page after page', async () => {
    const collection = (await items()).collection<Item>('items');
    const order = { field: 'seen_at', direction: -1 } as const;
    const rendering = new JsonRendering<Item>(toResource);
    let cursor: string | undefined;
    let pages = 0;
    do {
      const text = await jsonPage(collection, { org_id: 'org' }, order, { limit: 2, cursor }, rendering);
      const page = await paginate(collection, { org_id: 'org' }, order, { limit: 2, cursor });
      expect(text).toBe(JSON.stringify(page));
      cursor = page.next_cursor ?? undefined;
      pages += 1;
    } while (cursor);
    expect(pages).toBe(3);
    expect(await jsonPage(collection, { org_id: 'none' }, order, {}, rendering)).toBe('{"data":[],"next_cursor":null}');
  });

  it('presents a document once per version: again only after an update replaced it', async () => {
    const collection = (await items()).collection<Item>('items');
    const present = jest.fn(toResource);
    const rendering = new JsonRendering<Item>(present);
    const read = () => jsonPage(collection, { org_id: 'org' }, { field: '_id', direction: 1 }, { limit: 3 }, rendering);
    const first = await read();
    expect(await read()).toBe(first);
    expect(present).toHaveBeenCalledTimes(3);
    await collection.updateOne({ _id: idOf(1) }, { $set: { name: 'renamed' } });
    expect(JSON.parse(await read()).data[1]).toMatchObject({ id: idOf(1), name: 'renamed' });
    expect(present).toHaveBeenCalledTimes(4);
  });
});
