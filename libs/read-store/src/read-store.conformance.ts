import { randomBytes } from 'node:crypto';
import { DuplicateKeyError, type Document, type ReadCollection, type ReadStore } from './read-store.port';

type Script = Document & {
  domain: string;
  risk: number;
  seen_at: string;
  tags: string[];
  owner?: { team: string; contact?: string };
  checks?: Array<{ kind: string; ok: boolean }>;
  reviewed?: boolean;
};

const SCRIPTS: Script[] = [
  {
    _id: 's1',
    domain: 'cdn.example.com',
    risk: 3,
    seen_at: '2024-01-05T10:00:00.000Z',
    tags: ['analytics', 'third-party'],
    owner: { team: 'payments', contact: 'ana@example.com' },
    checks: [
      { kind: 'sri', ok: true },
      { kind: 'csp', ok: false },
    ],
  },
  {
    _id: 's2',
    domain: 'static.shop.com',
    risk: 1,
    seen_at: '2024-02-10T08:30:00.000Z',
    tags: ['first-party'],
    owner: { team: 'web' },
    checks: [{ kind: 'sri', ok: false }],
  },
  { _id: 's3', domain: 'tracker.ads.net', risk: 5, seen_at: '2024-03-01T00:00:00.000Z', tags: ['ads', 'third-party'], checks: [] },
  {
    _id: 's4',
    domain: 'pay.example.com',
    risk: 3,
    seen_at: '2024-01-20T12:00:00.000Z',
    tags: [],
    owner: { team: 'payments' },
    reviewed: true,
  },
];

const ids = (docs: Document[]): string[] => docs.map((doc) => doc._id);
const sortedIds = (docs: Document[]): string[] => ids(docs).sort();

/**
 * The promises of the ReadStore port, as MongoDB keeps them. Every adapter runs this one suite; collection names
 * are unique per test and per run, so it can share a server with other runs.
 */
export function readStoreConformance(
  name: string,
  factory: () => Promise<{ store: ReadStore; cleanup: () => Promise<void> }>,
): void {
  describe(`${name} read store (conformance)`, () => {
    let store: ReadStore;
    let cleanup: () => Promise<void>;
    const run = randomBytes(4).toString('hex');
    let created = 0;
    const freshName = (label: string): string => `conformance_${run}_${(created += 1)}_${label}`;

    beforeAll(async () => {
      ({ store, cleanup } = await factory());
    });
    afterAll(async () => cleanup());

    async function seeded(label: string, docs: Script[] = SCRIPTS): Promise<ReadCollection<Script>> {
      const collection = store.collection<Script>(freshName(label));
      for (const doc of docs) await collection.insertOne(doc);
      return collection;
    }

    async function expectDuplicate(
      write: Promise<unknown>,
      collection: string,
      keyValue: Record<string, unknown>,
    ): Promise<void> {
      const error = await write.then(
        () => undefined,
        (failure: unknown) => failure,
      );
      expect(error).toBeInstanceOf(DuplicateKeyError);
      expect(error).toMatchObject({ collection, keyValue });
    }

    describe('queries', () => {
      let scripts: ReadCollection<Script>;
      beforeAll(async () => {
        scripts = await seeded('queries');
      });

      it.each<[string, Record<string, unknown>, string[]]>([
        ['implicit equality', { domain: 'cdn.example.com' }, ['s1']],
        ['$eq', { risk: { $eq: 3 } }, ['s1', 's4']],
        ['$ne (missing counts as not equal)', { reviewed: { $ne: true } }, ['s1', 's2', 's3']],
        ['$in', { _id: { $in: ['s2', 's3', 'nope'] } }, ['s2', 's3']],
        ['$nin', { risk: { $nin: [3, 5] } }, ['s2']],
        ['$gt/$lt on numbers', { risk: { $gt: 1, $lt: 5 } }, ['s1', 's4']],
        ['$gte/$lt on ISO dates', { seen_at: { $gte: '2024-01-20T12:00:00.000Z', $lt: '2024-03-01T00:00:00.000Z' } }, ['s2', 's4']],
        ['$exists: false', { owner: { $exists: false } }, ['s3']],
        ['$exists: true', { reviewed: { $exists: true } }, ['s4']],
        ['null matches missing', { owner: null }, ['s3']],
        ['$or', { $or: [{ risk: 5 }, { 'owner.team': 'web' }] }, ['s2', 's3']],
        ['$and', { $and: [{ risk: 3 }, { tags: 'analytics' }] }, ['s1']],
        ['$regex string', { domain: { $regex: '^[a-z]+\\.example\\.com$' } }, ['s1', 's4']],
        ['$regex with $options', { domain: { $regex: 'EXAMPLE', $options: 'i' } }, ['s1', 's4']],
        ['RegExp value', { domain: /\.(net|shop\.com)$/ }, ['s2', 's3']],
        ['nested dotted field', { 'owner.team': 'payments' }, ['s1', 's4']],
        ['array containing a value', { tags: 'third-party' }, ['s1', 's3']],
        ['dotted field across array elements', { 'checks.kind': 'sri', 'checks.ok': false }, ['s1', 's2']],
        ['$elemMatch on one element', { checks: { $elemMatch: { kind: 'sri', ok: false } } }, ['s2']],
        ['empty filter', {}, ['s1', 's2', 's3', 's4']],
        ['nothing matches', { domain: 'unknown.example.org' }, []],
      ])('find with %s', async (_label, filter, expected) => {
        expect(sortedIds(await scripts.find(filter))).toEqual(expected);
        expect(await scripts.count(filter)).toBe(expected.length);
      });

      it('returns documents whole, as inserted', async () => {
        expect(await scripts.findOne({ _id: 's1' })).toEqual(SCRIPTS[0]);
        expect(await scripts.find({ _id: 's4' })).toEqual([SCRIPTS[3]]);
      });

      it('findOne gives null when nothing matches', async () => {
        expect(await scripts.findOne({ _id: 'nope' })).toBeNull();
        expect(await scripts.findOne({ risk: { $gt: 100 } })).toBeNull();
      });

      it('findOne with a filter beyond _id checks the whole filter', async () => {
        expect(await scripts.findOne({ _id: 's1', risk: 3 })).toMatchObject({ _id: 's1' });
        expect(await scripts.findOne({ _id: 's1', risk: 4 })).toBeNull();
      });

      it('sorts ascending and descending on one key', async () => {
        expect(ids(await scripts.find({}, { sort: { seen_at: 1 } }))).toEqual(['s1', 's4', 's2', 's3']);
        expect(ids(await scripts.find({}, { sort: { seen_at: -1 } }))).toEqual(['s3', 's2', 's4', 's1']);
      });

      it('sorts on two keys, the second breaking ties of the first', async () => {
        expect(ids(await scripts.find({}, { sort: { risk: -1, seen_at: 1 } }))).toEqual(['s3', 's1', 's4', 's2']);
        expect(ids(await scripts.find({}, { sort: { risk: 1, _id: -1 } }))).toEqual(['s2', 's4', 's1', 's3']);
      });

      it('skips and limits after sorting', async () => {
        expect(ids(await scripts.find({}, { sort: { seen_at: 1 }, skip: 1, limit: 2 }))).toEqual(['s4', 's2']);
        expect(ids(await scripts.find({ risk: 3 }, { sort: { _id: -1 }, limit: 1 }))).toEqual(['s4']);
        expect(await scripts.find({}, { sort: { _id: 1 }, skip: 10 })).toEqual([]);
      });

      it('reads an absent collection as empty', async () => {
        const absent = store.collection(freshName('absent'));
        expect(await absent.find({})).toEqual([]);
        expect(await absent.findOne({ _id: 'x' })).toBeNull();
        expect(await absent.count({})).toBe(0);
      });
    });

    describe('update operators', () => {
      async function updated(update: Record<string, Record<string, unknown>>): Promise<{ doc: Script | null; modified: number }> {
        const scripts = await seeded('update', [SCRIPTS[0]]);
        const result = await scripts.updateOne({ _id: 's1' }, update);
        expect(result).toMatchObject({ matched: 1, upserted: false });
        return { doc: await scripts.findOne({ _id: 's1' }), modified: result.modified };
      }

      it('$set replaces fields and creates dotted paths', async () => {
        const { doc, modified } = await updated({ $set: { risk: 4, 'owner.team': 'risk', 'review.by': 'ana' } });
        expect(modified).toBe(1);
        expect(doc).toMatchObject({ risk: 4, owner: { team: 'risk', contact: 'ana@example.com' }, review: { by: 'ana' } });
      });

      it('$set of the values already there modifies nothing', async () => {
        const { doc, modified } = await updated({ $set: { risk: 3, 'owner.team': 'payments' } });
        expect(modified).toBe(0);
        expect(doc).toEqual(SCRIPTS[0]);
      });

      it('$set may name the unchanged _id, as a $set of a whole document does', async () => {
        const { doc, modified } = await updated({ $set: { _id: 's1', risk: 9 } });
        expect(modified).toBe(1);
        expect(doc).toMatchObject({ _id: 's1', risk: 9 });
      });

      it('$unset removes fields, dotted ones included, and ignores missing ones', async () => {
        const { doc } = await updated({ $unset: { 'owner.contact': '', tags: '', never_there: '' } });
        expect(doc?.owner).toEqual({ team: 'payments' });
        expect(doc).not.toHaveProperty('tags');
      });

      it('$inc adds to numbers and starts missing ones from zero', async () => {
        const { doc } = await updated({ $inc: { risk: 2, 'stats.views': 1 } });
        expect(doc).toMatchObject({ risk: 5, stats: { views: 1 } });
      });

      it('$push appends one value, or several with $each, and creates missing arrays', async () => {
        const one = await updated({ $push: { tags: 'pci' } });
        expect(one.doc?.tags).toEqual(['analytics', 'third-party', 'pci']);
        const many = await updated({ $push: { tags: { $each: ['a', 'b'] }, 'history.changes': { at: 'now' } } });
        expect(many.doc?.tags).toEqual(['analytics', 'third-party', 'a', 'b']);
        expect(many.doc).toMatchObject({ history: { changes: [{ at: 'now' }] } });
      });

      it('$pull removes equal values and values matching a condition', async () => {
        const { doc } = await updated({ $pull: { tags: 'third-party', checks: { kind: 'csp' } } });
        expect(doc?.tags).toEqual(['analytics']);
        expect(doc?.checks).toEqual([{ kind: 'sri', ok: true }]);
      });

      it('$pull of an absent value modifies nothing', async () => {
        expect((await updated({ $pull: { tags: 'absent' } })).modified).toBe(0);
      });

      it('$addToSet adds only values not yet present, with or without $each', async () => {
        const present = await updated({ $addToSet: { tags: 'analytics' } });
        expect(present.modified).toBe(0);
        const each = await updated({ $addToSet: { tags: { $each: ['analytics', 'pci', 'pci'] } } });
        expect(each.doc?.tags).toEqual(['analytics', 'third-party', 'pci']);
      });

      it('$max and $min keep the larger or smaller value, on numbers, ISO dates and dotted paths', async () => {
        const lower = await updated({ $max: { risk: 2 } });
        expect(lower.modified).toBe(0);
        const { doc } = await updated({
          $max: { risk: 4, 'stats.peak': 7 },
          $min: { seen_at: '2023-12-31T00:00:00.000Z', 'stats.low': 1 },
        });
        expect(doc).toMatchObject({ risk: 4, seen_at: '2023-12-31T00:00:00.000Z', stats: { peak: 7, low: 1 } });
        const later = await updated({ $min: { seen_at: '2025-01-01T00:00:00.000Z' } });
        expect(later.doc?.seen_at).toBe(SCRIPTS[0].seen_at);
      });

      it('$setOnInsert does nothing to a document that exists', async () => {
        const scripts = await seeded('set-on-insert', [SCRIPTS[0]]);
        const result = await scripts.updateOne(
          { _id: 's1' },
          { $setOnInsert: { risk: 99, first_seen: 'x' }, $set: { reviewed: true } },
          { upsert: true },
        );
        expect(result).toEqual({ matched: 1, modified: 1, upserted: false });
        expect(await scripts.findOne({ _id: 's1' })).toEqual({ ...SCRIPTS[0], reviewed: true });
      });

      it('updateOne changes a single document even when several match', async () => {
        const scripts = await seeded('update-one');
        expect(await scripts.updateOne({ risk: 3 }, { $set: { flagged: true } })).toEqual({ matched: 1, modified: 1, upserted: false });
        expect(await scripts.count({ flagged: true })).toBe(1);
      });

      it('updateOne without a match and without upsert changes nothing', async () => {
        const scripts = await seeded('update-none');
        expect(await scripts.updateOne({ _id: 'nope' }, { $set: { risk: 0 } })).toEqual({ matched: 0, modified: 0, upserted: false });
        expect(await scripts.count({})).toBe(SCRIPTS.length);
      });

      it('updateMany counts matched and modified documents', async () => {
        const scripts = await seeded('update-many');
        expect(await scripts.updateMany({ 'owner.team': 'payments' }, { $set: { risk: 3 } })).toEqual({
          matched: 2,
          modified: 0,
          upserted: false,
        });
        expect(await scripts.updateMany({ risk: { $gte: 3 } }, { $inc: { risk: 1 } })).toEqual({ matched: 3, modified: 3, upserted: false });
        expect(sortedIds(await scripts.find({ risk: 4 }))).toEqual(['s1', 's4']);
        expect(await scripts.updateMany({ risk: 100 }, { $set: { x: 1 } })).toEqual({ matched: 0, modified: 0, upserted: false });
      });

      it('deleteMany returns how many documents it removed', async () => {
        const scripts = await seeded('delete');
        expect(await scripts.deleteMany({ tags: 'third-party' })).toBe(2);
        expect(sortedIds(await scripts.find({}))).toEqual(['s2', 's4']);
        expect(await scripts.deleteMany({ tags: 'third-party' })).toBe(0);
        expect(await scripts.deleteMany({})).toBe(2);
        expect(await scripts.count({})).toBe(0);
      });
    });

    describe('upserts', () => {
      it('inserts from the filter equalities, then the operators, then $setOnInsert', async () => {
        const collection = store.collection(freshName('upsert'));
        const filter = {
          _id: 'org-1:cdn.example.com',
          org_id: 'org-1',
          'script.domain': 'cdn.example.com',
          $and: [{ kind: { $eq: 'external' } }],
          risk: { $gt: 0 },
        };
        const update = { $set: { status: 'new' }, $inc: { seen: 1 }, $setOnInsert: { first_seen: '2024-01-01T00:00:00.000Z' } };

        expect(await collection.updateOne(filter, update, { upsert: true })).toEqual({ matched: 0, modified: 0, upserted: true });
        expect(await collection.findOne({ _id: 'org-1:cdn.example.com' })).toEqual({
          _id: 'org-1:cdn.example.com',
          org_id: 'org-1',
          script: { domain: 'cdn.example.com' },
          kind: 'external',
          status: 'new',
          seen: 1,
          first_seen: '2024-01-01T00:00:00.000Z',
        });
      });

      it('updates instead when the filter matches, leaving $setOnInsert fields alone', async () => {
        const collection = store.collection(freshName('upsert-again'));
        const upsertSeen = () =>
          collection.updateOne({ _id: 'a', org_id: 'org-1' }, { $inc: { seen: 1 }, $setOnInsert: { first: true } }, { upsert: true });
        await upsertSeen();
        expect(await upsertSeen()).toEqual({ matched: 1, modified: 1, upserted: false });
        expect(await collection.findOne({ _id: 'a' })).toEqual({ _id: 'a', org_id: 'org-1', seen: 2, first: true });
      });

      it('gives a string _id when neither the filter nor the update names one', async () => {
        const collection = store.collection(freshName('upsert-id'));
        await collection.updateOne({ org_id: 'org-1', domain: 'x.example.com' }, { $set: { risk: 2 } }, { upsert: true });
        const doc = await collection.findOne({ org_id: 'org-1' });
        expect(doc).toMatchObject({ org_id: 'org-1', domain: 'x.example.com', risk: 2 });
        expect(typeof doc?._id).toBe('string');
        expect(await collection.findOne({ _id: doc?._id })).toEqual(doc);
      });

      it('fails with a duplicate _id when the document exists but the rest of the filter does not match', async () => {
        const collection = await seeded('upsert-collision', [SCRIPTS[0]]);
        await expectDuplicate(
          collection.updateOne({ _id: 's1', risk: { $lt: 3 } }, { $set: { risk: 2 } }, { upsert: true }),
          collection.name,
          { _id: 's1' },
        );
        expect(await collection.findOne({ _id: 's1' })).toEqual(SCRIPTS[0]);
      });

      it('upsert replaces a whole document, or inserts it when missing', async () => {
        const collection = await seeded('replace', [SCRIPTS[0]]);
        const replacement = { _id: 's1', domain: 'cdn.example.com', risk: 0, seen_at: SCRIPTS[0].seen_at, tags: [] };
        await collection.upsert(replacement);
        expect(await collection.findOne({ _id: 's1' })).toEqual(replacement);
        await collection.upsert(SCRIPTS[1]);
        expect(sortedIds(await collection.find({}))).toEqual(['s1', 's2']);
      });
    });

    describe('unique indexes', () => {
      async function indexed(label: string, keys: Array<Record<string, 1 | -1>>): Promise<ReadCollection> {
        const name = freshName(label);
        await store.ensureIndexes(
          name,
          keys.map((key) => ({ key, unique: true })),
        );
        return store.collection(name);
      }

      it('refuses a second document with the same _id', async () => {
        const scripts = await seeded('duplicate-id', [SCRIPTS[0]]);
        await expectDuplicate(scripts.insertOne({ ...SCRIPTS[1], _id: 's1' }), scripts.name, { _id: 's1' });
        expect(await scripts.findOne({ _id: 's1' })).toEqual(SCRIPTS[0]);
      });

      it('refuses a duplicate single-field key on insert and names it', async () => {
        const domains = await indexed('unique-domain', [{ domain: 1 }]);
        await domains.insertOne({ _id: 'a', domain: 'cdn.example.com' });
        await expectDuplicate(domains.insertOne({ _id: 'b', domain: 'cdn.example.com' }), domains.name, { domain: 'cdn.example.com' });
        expect(await domains.count({})).toBe(1);
      });

      it('refuses a duplicate compound key, but not a partial overlap', async () => {
        const domains = await indexed('unique-compound', [{ org_id: 1, domain: -1 }]);
        await domains.insertOne({ _id: 'a', org_id: 'o1', domain: 'cdn.example.com' });
        await domains.insertOne({ _id: 'b', org_id: 'o2', domain: 'cdn.example.com' });
        await domains.insertOne({ _id: 'c', org_id: 'o1', domain: 'pay.example.com' });
        await expectDuplicate(domains.insertOne({ _id: 'd', org_id: 'o1', domain: 'cdn.example.com' }), domains.name, {
          org_id: 'o1',
          domain: 'cdn.example.com',
        });
      });

      it('counts a missing field as null, so two documents without it collide', async () => {
        const contacts = await indexed('unique-missing', [{ 'owner.contact': 1 }]);
        await contacts.insertOne({ _id: 'a', owner: { contact: 'ana@example.com' } });
        await contacts.insertOne({ _id: 'b', owner: { team: 'web' } });
        await expectDuplicate(contacts.insertOne({ _id: 'c' }), contacts.name, { 'owner.contact': null });
        await expectDuplicate(contacts.insertOne({ _id: 'd', owner: { contact: null } }), contacts.name, { 'owner.contact': null });
      });

      it('keys an array by each of its elements', async () => {
        const aliases = await indexed('unique-array', [{ aliases: 1 }]);
        await aliases.insertOne({ _id: 'a', aliases: ['cdn.example.com', 'static.example.com'] });
        await expectDuplicate(aliases.insertOne({ _id: 'b', aliases: ['other.example.com', 'static.example.com'] }), aliases.name, {
          aliases: 'static.example.com',
        });
      });

      it('refuses updates, upserts and replacements that would collide, leaving documents as they were', async () => {
        const domains = await indexed('unique-update', [{ domain: 1 }]);
        await domains.insertOne({ _id: 'a', domain: 'cdn.example.com' });
        await domains.insertOne({ _id: 'b', domain: 'pay.example.com' });
        const taken = { domain: 'cdn.example.com' };

        await expectDuplicate(domains.updateOne({ _id: 'b' }, { $set: taken }), domains.name, taken);
        await expectDuplicate(domains.updateMany({ _id: 'b' }, { $set: taken }), domains.name, taken);
        await expectDuplicate(domains.updateOne({ _id: 'c' }, { $set: taken }, { upsert: true }), domains.name, taken);
        await expectDuplicate(domains.upsert({ _id: 'b', ...taken }), domains.name, taken);
        await expectDuplicate(domains.upsert({ _id: 'c', ...taken }), domains.name, taken);
        expect(await domains.find({}, { sort: { _id: 1 } })).toEqual([
          { _id: 'a', domain: 'cdn.example.com' },
          { _id: 'b', domain: 'pay.example.com' },
        ]);
      });

      it('lets a document keep its own key, and frees keys it gives up or takes away', async () => {
        const domains = await indexed('unique-release', [{ domain: 1 }]);
        await domains.insertOne({ _id: 'a', domain: 'cdn.example.com' });
        await domains.insertOne({ _id: 'b', domain: 'pay.example.com' });
        await domains.updateOne({ _id: 'a' }, { $set: { risk: 1 } });
        await domains.upsert({ _id: 'a', domain: 'cdn.example.com', risk: 2 });

        await domains.updateOne({ _id: 'a' }, { $set: { domain: 'new.example.com' } });
        await domains.insertOne({ _id: 'c', domain: 'cdn.example.com' });
        await domains.deleteMany({ _id: 'b' });
        await domains.insertOne({ _id: 'd', domain: 'pay.example.com' });
        expect(await domains.count({})).toBe(3);
      });

      it('ensureIndexes is idempotent and a redefinition under the same name is refused', async () => {
        const name = freshName('ensure-twice');
        const spec = { key: { domain: 1 as const }, unique: true };
        await store.ensureIndexes(name, [spec]);
        await store.ensureIndexes(name, [spec]);
        await expect(store.ensureIndexes(name, [{ key: { domain: 1 }, unique: false }])).rejects.toThrow();
        const domains = store.collection(name);
        await domains.insertOne({ _id: 'a', domain: 'cdn.example.com' });
        await expectDuplicate(domains.insertOne({ _id: 'b', domain: 'cdn.example.com' }), name, { domain: 'cdn.example.com' });
      });

      it('a unique index cannot be declared over documents that already collide', async () => {
        const scripts = await seeded('ensure-over-duplicates');
        await expect(store.ensureIndexes(scripts.name, [{ key: { risk: 1 }, unique: true }])).rejects.toBeInstanceOf(DuplicateKeyError);
        await scripts.insertOne({ ...SCRIPTS[0], _id: 's5' });
        expect(await scripts.count({ risk: 3 })).toBe(3);
      });

      it('a non-unique index allows equal keys and still finds by them', async () => {
        const name = freshName('non-unique');
        await store.ensureIndexes(name, [{ key: { risk: 1 } }, { key: { tags: 1 }, name: 'by_tag' }]);
        const scripts = store.collection<Script>(name);
        for (const doc of SCRIPTS) await scripts.insertOne(doc);
        expect(sortedIds(await scripts.find({ risk: 3 }))).toEqual(['s1', 's4']);
        expect(sortedIds(await scripts.find({ tags: 'third-party', risk: 5 }))).toEqual(['s3']);
        expect(await scripts.count({ tags: 'nothing' })).toBe(0);
      });
    });

    describe('documents are copies', () => {
      it('changing a found document changes nothing stored', async () => {
        const scripts = await seeded('copies-read', [SCRIPTS[0]]);
        const one = await scripts.findOne({ _id: 's1' });
        one?.tags.push('mutated');
        if (one?.owner) one.owner.team = 'mutated';
        const [many] = await scripts.find({ risk: 3 });
        many.risk = 0;
        expect(await scripts.findOne({ _id: 's1' })).toEqual(SCRIPTS[0]);
      });

      it('changing a written document or update value afterwards changes nothing stored', async () => {
        const collection = store.collection(freshName('copies-write'));
        const doc = { _id: 'a', tags: ['x'], owner: { team: 'web' } };
        await collection.insertOne(doc);
        doc.tags.push('mutated');
        const owner = { team: 'payments' };
        const check = { kind: 'sri', ok: true };
        await collection.updateOne({ _id: 'a' }, { $set: { owner }, $push: { checks: check } });
        owner.team = 'mutated';
        check.ok = false;
        expect(await collection.findOne({ _id: 'a' })).toEqual({
          _id: 'a',
          tags: ['x'],
          owner: { team: 'payments' },
          checks: [{ kind: 'sri', ok: true }],
        });
      });
    });

    describe('frozen reads', () => {
      it('find the same documents as findOne and find, frozen through and through', async () => {
        const scripts = await seeded('frozen-read');
        expect(await scripts.findOneFrozen({ _id: 's1' })).toEqual(SCRIPTS[0]);
        expect(await scripts.findOneFrozen({ _id: 'nope' })).toBeNull();
        const page = await scripts.findFrozen({ risk: 3 }, { sort: { seen_at: -1 }, limit: 2 });
        expect(page).toEqual(await scripts.find({ risk: 3 }, { sort: { seen_at: -1 }, limit: 2 }));
        const [doc] = page;
        expect(Object.isFrozen(doc)).toBe(true);
        expect(Object.isFrozen(doc.tags)).toBe(true);
        expect(Object.isFrozen(doc.owner)).toBe(true);
      });

      it('a write to a frozen document throws and changes nothing stored; later updates make new versions', async () => {
        const scripts = await seeded('frozen-write', [SCRIPTS[0]]);
        const before = await scripts.findOneFrozen({ _id: 's1' });
        const writable = before as Script;
        expect(() => writable.tags.push('mutated')).toThrow(TypeError);
        expect(() => Object.assign(writable.owner ?? {}, { team: 'mutated' })).toThrow(TypeError);
        expect(() => Object.assign(writable, { risk: 0 })).toThrow(TypeError);
        expect(await scripts.findOne({ _id: 's1' })).toEqual(SCRIPTS[0]);
        await scripts.updateOne({ _id: 's1' }, { $set: { 'owner.team': 'web', risk: 4 }, $push: { tags: 'new' }, $unset: { 'owner.contact': '' } });
        const after = { ...SCRIPTS[0], risk: 4, owner: { team: 'web' }, tags: [...SCRIPTS[0].tags, 'new'] };
        expect(await scripts.findOneFrozen({ _id: 's1' })).toEqual(after);
        expect(before).toEqual(SCRIPTS[0]);
        await scripts.upsert(SCRIPTS[0]);
        expect(await scripts.findFrozen({ _id: 's1' })).toEqual([SCRIPTS[0]]);
      });
    });

    describe('collections', () => {
      it('listCollections names the collections written or indexed, not those only read', async () => {
        const written = await seeded('listed-written', [SCRIPTS[0]]);
        const indexedName = freshName('listed-indexed');
        await store.ensureIndexes(indexedName, [{ key: { domain: 1 } }]);
        const readOnly = store.collection(freshName('listed-read'));
        await readOnly.find({});

        const names = await store.listCollections();
        expect(names).toEqual(expect.arrayContaining([written.name, indexedName]));
        expect(names).not.toContain(readOnly.name);
      });

      it('drop removes documents and indexes, and ignores an absent collection', async () => {
        const name = freshName('drop');
        await store.ensureIndexes(name, [{ key: { domain: 1 }, unique: true }]);
        const domains = store.collection(name);
        await domains.insertOne({ _id: 'a', domain: 'cdn.example.com' });

        await store.drop(name);
        expect(await domains.count({})).toBe(0);
        expect(await store.listCollections()).not.toContain(name);
        await domains.insertOne({ _id: 'a', domain: 'cdn.example.com' });
        await domains.insertOne({ _id: 'b', domain: 'cdn.example.com' });
        await expect(store.drop(freshName('never-created'))).resolves.toBeUndefined();
      });

      it('rename swaps in the source with its indexes and drops the old target', async () => {
        const live = freshName('live');
        const shadow = freshName('shadow');
        await store.ensureIndexes(live, [{ key: { domain: 1 }, unique: true }]);
        await store.ensureIndexes(shadow, [{ key: { org_id: 1, domain: 1 }, unique: true }]);
        const liveHandle = store.collection(live);
        await liveHandle.insertOne({ _id: 'old', org_id: 'o1', domain: 'old.example.com' });
        await store.collection(shadow).insertOne({ _id: 'new', org_id: 'o1', domain: 'cdn.example.com' });

        await store.rename(shadow, live);

        expect(await liveHandle.find({})).toEqual([{ _id: 'new', org_id: 'o1', domain: 'cdn.example.com' }]);
        expect(await store.collection(shadow).count({})).toBe(0);
        const names = await store.listCollections();
        expect(names).toContain(live);
        expect(names).not.toContain(shadow);
        // The shadow's compound index came along; the old target's single-field one went with it.
        await liveHandle.insertOne({ _id: 'other-org', org_id: 'o2', domain: 'cdn.example.com' });
        await expectDuplicate(liveHandle.insertOne({ _id: 'dup', org_id: 'o1', domain: 'cdn.example.com' }), live, {
          org_id: 'o1',
          domain: 'cdn.example.com',
        });
      });

      it('rename of an absent source leaves the target empty, as an empty rebuild should', async () => {
        const live = await seeded('rename-target', [SCRIPTS[0]]);
        await store.rename(freshName('absent-shadow'), live.name);
        expect(await live.count({})).toBe(0);
        expect(await store.listCollections()).not.toContain(live.name);
      });

      it('rename onto itself changes nothing', async () => {
        const scripts = await seeded('rename-self', [SCRIPTS[0]]);
        await store.rename(scripts.name, scripts.name);
        expect(await scripts.find({})).toEqual([SCRIPTS[0]]);
      });
    });
  });
}
