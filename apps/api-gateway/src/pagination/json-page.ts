import type { Document, Filter, Frozen, ReadCollection } from '@pss/read-store';
import { nextCursor, pageQuery, type PageOrder, type PageRequest } from './paginate';

/** The content type Fastify gives the JSON it serializes: a route answering JSON text declares it with `@Header`. */
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/**
 * A presenter whose JSON text is kept per frozen document: a frozen document never changes, so neither does what
 * it presents, and a page clients poll is rendered once per version of each of its documents rather than once per
 * request. Kept in a WeakMap, so a text lives as long as the version it renders (a replaced version is collected
 * with its text). The text is `JSON.stringify` of the presented resource: the bytes Fastify would have written.
 */
export class JsonRendering<T extends Document> {
  private readonly rendered = new WeakMap<Frozen<T>, string>();

  constructor(private readonly present: (doc: Frozen<T>) => unknown) {}

  of(doc: Frozen<T>): string {
    let json = this.rendered.get(doc);
    if (json === undefined) {
      json = JSON.stringify(this.present(doc));
      this.rendered.set(doc, json);
    }
    return json;
  }
}

/**
 * `paginate`'s page as the JSON text of its answer, for the list GETs clients poll: the page is read frozen (the
 * memory read store hands out its stored versions instead of deep copies) and each document is presented by
 * `rendering`, so a document presented before costs no work at all. The same bytes as Fastify's serialization
 * of `paginate`'s page with the same presenter.
 */
export async function jsonPage<T extends Document>(
  collection: ReadCollection<T>,
  filter: Filter,
  order: PageOrder,
  request: PageRequest,
  rendering: JsonRendering<T>,
): Promise<string> {
  const { query, sort, limit } = pageQuery(filter, order, request);
  const docs = await collection.findFrozen(query, { sort, limit: limit + 1 });
  let data = '';
  for (let i = 0; i < docs.length && i < limit; i += 1) data += i === 0 ? rendering.of(docs[i]) : `,${rendering.of(docs[i])}`;
  return `{"data":[${data}],"next_cursor":${JSON.stringify(nextCursor(docs, limit, order))}}`;
}
