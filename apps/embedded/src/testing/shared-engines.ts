import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore, type EventStore } from '@pss/event-store';
import { DataDirFileStore } from '@pss/files';
import type { ServiceAppOptions } from '@pss/host';
import { ReadStoreCheckpointStore } from '@pss/platform';
import { MemoryReadStore, type ReadCollection, type ReadStore } from '@pss/read-store';
import { ProcessDownError, SparseEventStore } from '@pss/testkit';
import { ConsumerGroupBroker } from './consumer-group-broker';

/** Where replicas hold their leases (libs/projections PUBLISHER_LEASES, libs/platform JOB_LEASES). */
const LEASES = ['publisher_leases', 'job_leases'];

/** What MongoDB's driver throws when no server answers: an outage by its class name (isOutage). */
export class MongoServerSelectionError extends Error {
  constructor() {
    super('Server selection timed out after 3000 ms (an injected read-store outage)');
  }
}

/** One replica's hold on the engines: what its application connects with, and how its process dies. */
export interface Replica {
  engines: NonNullable<ServiceAppOptions['engines']>;
  /**
   * The process dies: no drain, no checkpoint, no lease given back; nothing it still runs reaches an engine, and
   * the broker hands what it had not committed to another member. Its leases are aged out at once, as their 15 to
   * 30 s term would (the test does not wait for it).
   */
  crash(): Promise<void>;
}

/**
 * The engines of distributed mode, in process, shared by every replica a test starts: an event store with
 * EventStoreDB's sparse positions (over SQLite), one read store (MongoDB's part: read models, checkpoints, leases),
 * one file store and a broker with consumer groups (Kafka's part). The data directory is shared too, so every
 * replica seals with one secret key, as SECRET_KEY_FILE on a shared volume does.
 */
export class SharedEngines {
  readonly dataDir = mkdtempSync(join(tmpdir(), 'pss-shared-'));
  private readonly dense = SqliteEventStore.open(join(this.dataDir, 'events.sqlite'));
  private readonly eventStore = new SparseEventStore(this.dense);
  private readonly readStore = new MemoryReadStore();
  private readonly files = new DataDirFileStore(join(this.dataDir, 'files'));
  private readonly broker = new ConsumerGroupBroker();
  private readStoreDown = false;

  connect(): Replica {
    const link = { alive: true, leaseOwners: new Set<string>() };
    const member = this.broker.join();
    const readStore = this.connection(link);
    const eventStore = severable(this.eventStore, link);
    return {
      engines: {
        broker: member.broker,
        adapters: async () => ({ eventStore, readStore, checkpoints: new ReadStoreCheckpointStore(readStore), files: this.files }),
      },
      crash: async () => {
        link.alive = false;
        member.crash();
        for (const name of LEASES) {
          for (const owner of link.leaseOwners) await this.readStore.collection(name).updateMany({ owner }, { $set: { expires_at: 0 } });
        }
      },
    };
  }

  /** Every call to the read store fails as MongoDB's do when no primary answers, until `end()`. */
  readStoreOutage(): { end(): void } {
    this.readStoreDown = true;
    return { end: () => (this.readStoreDown = false) };
  }

  async close(): Promise<void> {
    await this.dense.close();
    await this.readStore.close();
    rmSync(this.dataDir, { recursive: true, force: true });
  }

  /** A replica's connection to the read store: closing it closes nothing shared; it fails once its process died or in an outage. */
  private connection(link: { alive: boolean; leaseOwners: Set<string> }): ReadStore {
    const shared = this.readStore;
    const reachable = (): void => {
      if (!link.alive) throw new ProcessDownError();
      if (this.readStoreDown) throw new MongoServerSelectionError();
    };
    const call =
      <A extends unknown[], R>(method: (...args: A) => Promise<R>) =>
      async (...args: A): Promise<R> => {
        reachable();
        return method(...args);
      };
    return {
      collection: <T extends { _id: string }>(name: string) => guarded(shared.collection<T>(name), reachable, LEASES.includes(name) ? link.leaseOwners : undefined),
      ensureIndexes: call(shared.ensureIndexes.bind(shared)),
      drop: call(shared.drop.bind(shared)),
      rename: call(shared.rename.bind(shared)),
      listCollections: call(shared.listCollections.bind(shared)),
      close: async () => undefined,
    };
  }
}

/** A collection whose every call first asks `reachable`; in a lease collection, the owners this replica wrote are noted. */
function guarded<T extends { _id: string }>(collection: ReadCollection<T>, reachable: () => void, leaseOwners?: Set<string>): ReadCollection<T> {
  return new Proxy(collection, {
    get: (target, property, receiver) => {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      return async (...args: unknown[]) => {
        reachable();
        const owner = (args[1] as { $set?: { owner?: unknown } } | undefined)?.$set?.owner;
        if (leaseOwners && typeof owner === 'string') leaseOwners.add(owner);
        return value.apply(target, args);
      };
    },
  });
}

/** A replica's connection to the event store: it fails once its process died, subscriptions included; closing it closes nothing shared. */
function severable(shared: EventStore, link: { alive: boolean }): EventStore {
  const reachable = (): void => {
    if (!link.alive) throw new ProcessDownError();
  };
  return {
    append: async (...args) => (reachable(), shared.append(...args)),
    readStream: async (...args) => (reachable(), shared.readStream(...args)),
    readAll: async (...args) => (reachable(), shared.readAll(...args)),
    headPosition: async () => (reachable(), shared.headPosition()),
    subscribeToAll: (options) =>
      shared.subscribeToAll({
        ...options,
        onEvent: async (event) => (reachable(), options.onEvent(event)),
      }),
    close: async () => undefined,
  };
}
