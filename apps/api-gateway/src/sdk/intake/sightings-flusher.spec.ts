import type { Bus } from '@pss/bus';
import type { SdkRecordSightingsCommand, SdkRecordSightingsReply, StoreSightings } from '@pss/contracts';
import { MAX_PENDING_WINDOWS, SightingsFlusher, WINDOWS_PER_COMMAND } from './sightings-flusher';

/** An inventory on the other side of the bus that records what it is sent, or fails as told. */
class RecordingInventory implements Bus {
  readonly recorded: string[] = [];
  /** Every window sent, recorded or not. */
  readonly sent: StoreSightings[] = [];
  failing = false;
  failStores = new Set<string>();
  commands = 0;

  async request<Reply>(_pattern: string, payload: unknown): Promise<Reply> {
    this.commands += 1;
    const { windows } = payload as SdkRecordSightingsCommand;
    this.sent.push(...windows);
    if (this.failing) throw new Error('inventory unreachable');
    const failed = windows.filter((window) => this.failStores.has(window.storeId)).map((window) => window.storeId);
    this.recorded.push(...windows.filter((window) => !this.failStores.has(window.storeId)).map((window) => window.storeId));
    const reply: SdkRecordSightingsReply = { failed_store_ids: failed };
    return reply as Reply;
  }

  async publish(): Promise<void> {}
}

describe('SightingsFlusher', () => {
  const VISIT = { path: '/checkout', sessionId: 'session', client: 'client-1' };
  const store = (n: number) => ({ _id: `store-${n}`, org_id: 'org-1' });
  const setUp = () => {
    const inventory = new RecordingInventory();
    return { inventory, flusher: new SightingsFlusher(inventory) };
  };

  it('keeps what inventory could not record for the next flush, and only that', async () => {
    const { inventory, flusher } = setUp();
    flusher.count(store(1), VISIT, 3, ['script-a'], 'session', 0);
    flusher.count(store(2), VISIT, 3, [], 'session', 0);
    inventory.failStores.add('store-2');
    await flusher.run();
    expect(inventory.recorded).toEqual(['store-1']);
    inventory.failStores.clear();
    await flusher.run();
    expect(inventory.recorded).toEqual(['store-1', 'store-2']);
  });

  it('sends a window again under the id it was first sent with, and each new window under a new id (issue 33, D6)', async () => {
    const { inventory, flusher } = setUp();
    flusher.count(store(1), VISIT, 3, [], 'session', 0);
    inventory.failing = true; // the reply was lost: inventory may have recorded the window
    await flusher.run();
    inventory.failing = false;
    await flusher.run();
    flusher.count(store(1), VISIT, 3, [], 'session', 0);
    await flusher.run();
    const [first, retried, next] = inventory.sent;
    expect(retried.windowId).toBe(first.windowId);
    expect(next.windowId).not.toBe(first.windowId);
  });

  it('keeps every window through an outage and sends them in bounded commands', async () => {
    const { inventory, flusher } = setUp();
    for (let n = 0; n < WINDOWS_PER_COMMAND + 1; n += 1) flusher.count(store(n), VISIT, 1, [], 'session', 0);
    inventory.failing = true;
    await flusher.run();
    expect(inventory.recorded).toEqual([]);
    inventory.failing = false;
    inventory.commands = 0;
    await flusher.run();
    expect(inventory.recorded).toHaveLength(WINDOWS_PER_COMMAND + 1);
    expect(inventory.commands).toBe(2);
  });

  it('drops the oldest windows beyond its bound while inventory stays away', async () => {
    const { inventory, flusher } = setUp();
    inventory.failing = true;
    for (let n = 0; n < MAX_PENDING_WINDOWS + 5; n += 1) {
      flusher.count(store(n), VISIT, 1, [], 'session', 0);
      if (n % 5_000 === 0) await flusher.run();
    }
    await flusher.run();
    inventory.failing = false;
    await flusher.run();
    expect(inventory.recorded).toHaveLength(MAX_PENDING_WINDOWS);
    expect(inventory.recorded.at(-1)).toBe(`store-${MAX_PENDING_WINDOWS + 4}`);
  });
});
