import { DeliveryWindow } from './delivery-window';

/** A delivery the test finishes by hand. */
class Delivery {
  started = false;
  private finish!: () => void;
  private failWith!: (error: Error) => void;
  private readonly done = new Promise<void>((resolve, reject) => {
    this.finish = resolve;
    this.failWith = reject;
  });

  readonly run = (): Promise<void> => {
    this.started = true;
    return this.done;
  };

  async complete(): Promise<void> {
    this.finish();
    await settleMicrotasks();
  }

  async fail(error: Error): Promise<void> {
    this.failWith(error);
    await settleMicrotasks();
  }
}

const settleMicrotasks = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('DeliveryWindow', () => {
  it('delivers events of different keys side by side, and settles only up to the first one not delivered', async () => {
    const window = new DeliveryWindow(8, 10);
    const [first, second] = [new Delivery(), new Delivery()];
    await window.admit(11, 'store-a', first.run);
    await window.admit(12, 'store-b', second.run);
    expect([first.started, second.started]).toEqual([true, true]);

    await second.complete();
    expect(window.settledPosition).toBe(10);
    await first.complete();
    expect(window.settledPosition).toBe(12);
  });

  it("starts a key's event only once the one admitted before it of the same key is delivered", async () => {
    const window = new DeliveryWindow(8);
    const [first, second] = [new Delivery(), new Delivery()];
    await window.admit(1, 'store-a', first.run);
    await window.admit(2, 'store-a', second.run);
    await settleMicrotasks();
    expect(second.started).toBe(false);

    await first.complete();
    expect(second.started).toBe(true);
    await second.complete();
    expect(window.settledPosition).toBe(2);
  });

  it('admits no more than its limit at once: the next waits for room', async () => {
    const window = new DeliveryWindow(2);
    const deliveries = [new Delivery(), new Delivery(), new Delivery()];
    await window.admit(1, 'a', deliveries[0].run);
    await window.admit(2, 'b', deliveries[1].run);
    let thirdAdmitted = false;
    const third = window.admit(3, 'c', deliveries[2].run).then(() => (thirdAdmitted = true));
    await settleMicrotasks();
    expect([thirdAdmitted, deliveries[2].started]).toEqual([false, false]);

    await deliveries[1].complete();
    await third;
    expect(deliveries[2].started).toBe(true);
  });

  it('counts positions it was told need no delivery as settled, but never past one in flight (never p - 1: only positions it saw)', async () => {
    const window = new DeliveryWindow(8, 0);
    window.skipTo(5);
    expect(window.settledPosition).toBe(5);
    const delivery = new Delivery();
    await window.admit(7, 'a', delivery.run);
    window.skipTo(9);
    expect(window.settledPosition).toBe(5);
    await delivery.complete();
    expect(window.settledPosition).toBe(9);
  });

  it("after a delivery gave up, settles at the position before it, delivers none of its key's later events, and admits no more", async () => {
    const window = new DeliveryWindow(8, 1);
    const [failing, sameKey, otherKey] = [new Delivery(), new Delivery(), new Delivery()];
    await window.admit(3, 'a', failing.run);
    await window.admit(4, 'a', sameKey.run);
    await window.admit(5, 'b', otherKey.run);
    await failing.fail(new Error('stopping'));
    await otherKey.complete();

    expect(sameKey.started).toBe(false);
    expect(window.settledPosition).toBe(1);
    await window.drain();
    await expect(window.admit(6, 'c', async () => undefined)).rejects.toThrow('stopping');
  });

  it('drains: resolves once every delivery in flight is done', async () => {
    const window = new DeliveryWindow(8, 0);
    const delivery = new Delivery();
    await window.admit(1, undefined, delivery.run);
    let drained = false;
    const draining = window.drain().then(() => (drained = true));
    await settleMicrotasks();
    expect(drained).toBe(false);
    await delivery.complete();
    await draining;
    expect(window.settledPosition).toBe(1);
  });
});
