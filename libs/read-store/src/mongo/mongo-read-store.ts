import { uuidv7 } from '@pss/kernel';
import { MongoClient, MongoServerError, type Collection, type Db, type IndexDescription } from 'mongodb';
import {
  DuplicateKeyError,
  type Document,
  type Filter,
  type FindOptions,
  type Frozen,
  type IndexSpec,
  type ReadCollection,
  type ReadStore,
  type UpdateResult,
  type UpdateSpec,
} from '../read-store.port';
import { freezeDocument } from '../freeze-document';

const DUPLICATE_KEY = 11000;
const NAMESPACE_NOT_FOUND = 26;

/**
 * The driver waits 30 s for a server by default (serverSelectionTimeoutMS), so a MongoDB outage or an election held
 * every request that long and then answered 500. Bounded here, an outage surfaces within seconds as
 * MongoServerSelectionError, which the bus answers as 503 (libs/bus outage.ts). Without a socket timeout (the
 * default is none) an operation on a half-open connection (a primary gone without a FIN) waits until the pool is
 * cleared; 20 s is far above any single read-model operation, so only a dead socket meets it (MongoNetworkTimeoutError,
 * an outage too).
 */
export const MONGO_DRIVER_TIMEOUTS = { serverSelectionTimeoutMS: 3_000, connectTimeoutMS: 3_000, socketTimeoutMS: 20_000 };

/** The distributed read store: one MongoDB database, the collections in it used as they are. */
export class MongoReadStore implements ReadStore {
  private constructor(
    private readonly client: MongoClient,
    private readonly db: Db,
  ) {}

  static async connect(url: string, dbName: string): Promise<MongoReadStore> {
    const client = await MongoClient.connect(url, MONGO_DRIVER_TIMEOUTS);
    return new MongoReadStore(client, client.db(dbName));
  }

  collection<T extends Document = Document>(name: string): ReadCollection<T> {
    return new MongoReadCollection<T>(this.db.collection<Document>(name));
  }

  async ensureIndexes(collection: string, indexes: IndexSpec[]): Promise<void> {
    if (indexes.length === 0) return;
    const descriptions = indexes.map(({ key, unique, name }): IndexDescription => ({
      key,
      ...(unique === undefined ? {} : { unique }),
      ...(name === undefined ? {} : { name }),
    }));
    await writing(collection, () => this.db.collection(collection).createIndexes(descriptions));
  }

  async drop(collection: string): Promise<void> {
    await ignoringMissing(() => this.db.collection(collection).drop());
  }

  /** A missing `from` is an empty collection, so `to` ends up empty: an empty rebuild still swaps in. */
  async rename(from: string, to: string): Promise<void> {
    if (from === to) return; // with dropTarget the server would drop the collection, then fail (SERVER-37388)
    try {
      await this.db.collection(from).rename(to, { dropTarget: true });
    } catch (error) {
      if (!isServerError(error, NAMESPACE_NOT_FOUND)) throw error;
      await this.drop(to);
    }
  }

  async listCollections(): Promise<string[]> {
    const collections = await this.db.listCollections({}, { nameOnly: true }).toArray();
    return collections
      .map(({ name }) => name)
      .filter((name) => !name.startsWith('system.'))
      .sort();
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}

class MongoReadCollection<T extends Document> implements ReadCollection<T> {
  readonly name: string;

  constructor(private readonly collection: Collection<Document>) {
    this.name = collection.collectionName;
  }

  async findOne(filter: Filter): Promise<T | null> {
    return (await this.collection.findOne(filter)) as T | null;
  }

  async find(filter: Filter, options: FindOptions = {}): Promise<T[]> {
    return (await this.collection.find(filter, options).toArray()) as T[];
  }

  /** The driver's documents are this call's own: frozen as they come. */
  async findOneFrozen(filter: Filter): Promise<Frozen<T> | null> {
    const doc = await this.findOne(filter);
    return doc && frozen(doc);
  }

  async findFrozen(filter: Filter, options: FindOptions = {}): Promise<ReadonlyArray<Frozen<T>>> {
    return (await this.find(filter, options)).map(frozen);
  }

  async count(filter: Filter): Promise<number> {
    return this.collection.countDocuments(filter);
  }

  async insertOne(doc: T): Promise<void> {
    await writing(this.name, () => this.collection.insertOne(doc));
  }

  async upsert(doc: T): Promise<void> {
    await writing(this.name, () => this.collection.replaceOne({ _id: doc._id }, doc, { upsert: true }));
  }

  async updateOne(filter: Filter, update: UpdateSpec, options: { upsert?: boolean } = {}): Promise<UpdateResult> {
    const upsert = options.upsert ?? false;
    const result = await writing(this.name, () =>
      this.collection.updateOne(filter, upsert ? withStringIdOnInsert(filter, update) : update, { upsert }),
    );
    return { matched: result.matchedCount, modified: result.modifiedCount, upserted: result.upsertedCount > 0 };
  }

  async updateMany(filter: Filter, update: UpdateSpec): Promise<UpdateResult> {
    const result = await writing(this.name, () => this.collection.updateMany(filter, update));
    return { matched: result.matchedCount, modified: result.modifiedCount, upserted: false };
  }

  async deleteMany(filter: Filter): Promise<number> {
    return (await this.collection.deleteMany(filter)).deletedCount;
  }
}

function frozen<T extends Document>(doc: T): Frozen<T> {
  freezeDocument(doc);
  return doc as Frozen<T>;
}

/** Runs a write, turning the server's E11000 into the port's DuplicateKeyError. */
async function writing<R>(collection: string, write: () => Promise<R>): Promise<R> {
  try {
    return await write();
  } catch (error) {
    if (isServerError(error, DUPLICATE_KEY)) throw new DuplicateKeyError(collection, error.keyValue ?? {});
    throw error;
  }
}

/** Servers before 7.0 answer NamespaceNotFound to dropping a missing collection; 7.0 and later say nothing. */
async function ignoringMissing(drop: () => Promise<unknown>): Promise<void> {
  try {
    await drop();
  } catch (error) {
    if (!isServerError(error, NAMESPACE_NOT_FOUND)) throw error;
  }
}

function isServerError(error: unknown, code: number): error is MongoServerError {
  return error instanceof MongoServerError && error.code === code;
}

/**
 * MongoDB gives an upserted document an ObjectId unless the filter or the update names its `_id`; read models
 * are keyed by strings, so the id is chosen here (UUIDv7), as the memory adapter does.
 */
function withStringIdOnInsert(filter: Filter, update: UpdateSpec): UpdateSpec {
  if (fixesId(filter) || update.$set?._id !== undefined || update.$setOnInsert?._id !== undefined) return update;
  return { ...update, $setOnInsert: { ...update.$setOnInsert, _id: uuidv7() } };
}

/** Whether the upsert seeds `_id` from the filter: an equality on it, at the top level or in an `$and`. */
function fixesId(filter: Filter): boolean {
  if (isEquality(filter._id)) return true;
  return Array.isArray(filter.$and) && filter.$and.some((clause: Filter) => fixesId(clause));
}

function isEquality(condition: unknown): boolean {
  if (condition === undefined || condition instanceof RegExp) return false;
  if (typeof condition !== 'object' || condition === null || Array.isArray(condition)) return true;
  const operators = Object.keys(condition).filter((key) => key.startsWith('$'));
  return operators.length === 0 || operators.includes('$eq');
}
