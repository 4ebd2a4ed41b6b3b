/**
 * Deliveries of an ordered log (event-store positions) with up to `limit` in flight at once, those of one key in
 * the order they were admitted, as a Kafka partition orders a key's messages. It knows how far the log is
 * settled: every position up to `settledPosition` is delivered, so a checkpoint there loses nothing. Deliveries
 * retry on their own; one that gives up (its caller is stopping) leaves the window settled just before it, and
 * the window admits nothing more.
 *
 * "Just before" is the position admitted or skipped before it, never arithmetic on positions: EventStoreDB's are
 * log offsets, and it refuses to resume from one it never handed out (`InvalidPosition`), so a checkpoint at
 * `p − 1` would stall the publisher for good after a crash.
 */
export class DeliveryWindow {
  /** Positions in flight, in the order admitted (ascending), each with the position admitted or skipped before it. */
  private readonly inFlight = new Map<number, number>();
  /** Per key, the end of its chain of deliveries: whether the last one was delivered (a link never rejects). */
  private readonly tails = new Map<string, Promise<boolean>>();
  private admitted: number;
  /** The position before the first delivery that gave up. */
  private failedAfter?: number;
  private failure?: unknown;
  private waitingForRoom: Array<() => void> = [];

  constructor(
    private readonly limit: number,
    from = 0,
  ) {
    this.admitted = from;
  }

  /** Everything up to this position is delivered (or needed no delivery). */
  get settledPosition(): number {
    const firstInFlight = this.inFlight.values().next();
    const beforeInFlight = firstInFlight.done ? this.admitted : firstInFlight.value;
    return this.failedAfter === undefined ? beforeInFlight : Math.min(beforeInFlight, this.failedAfter);
  }

  /**
   * Starts delivering `position` once there is room, after the deliveries of `key` admitted before it. Resolves
   * when it is started, not delivered; rejects once a delivery has failed.
   */
  async admit(position: number, key: string | undefined, deliver: () => Promise<void>): Promise<void> {
    while (this.failedAfter === undefined && this.inFlight.size >= this.limit) {
      await new Promise<void>((resolve) => this.waitingForRoom.push(resolve));
    }
    if (this.failedAfter !== undefined) throw this.failure;
    const before = this.admitted;
    this.inFlight.set(position, before);
    this.admitted = position;
    const previous = key === undefined ? undefined : this.tails.get(key);
    // After one of its key gave up, a later event is not delivered: that would deliver the key out of order.
    const delivered = previous ? previous.then((ok) => (ok ? deliver() : Promise.reject(this.failure))) : deliver();
    const link = delivered.then(
      () => this.settle(position),
      (failure: unknown) => this.fail(position, before, failure),
    );
    if (key !== undefined) {
      this.tails.set(key, link);
      void link.then(() => this.tails.get(key) === link && this.tails.delete(key));
    }
  }

  /** Positions up to `position` needed no delivery (the log was filtered). */
  skipTo(position: number): void {
    if (position > this.admitted) this.admitted = position;
  }

  /** Resolves once nothing is in flight. */
  async drain(): Promise<void> {
    await Promise.all(this.tails.values());
    while (this.inFlight.size > 0) await new Promise<void>((resolve) => this.waitingForRoom.push(resolve));
  }

  private settle(position: number): true {
    this.inFlight.delete(position);
    const waiting = this.waitingForRoom;
    this.waitingForRoom = [];
    for (const resume of waiting) resume();
    return true;
  }

  private fail(position: number, before: number, failure: unknown): false {
    // Positions ascend in admission order, so the earliest failure has the smallest position before it.
    if (this.failedAfter === undefined || before < this.failedAfter) {
      this.failedAfter = before;
      this.failure = failure;
    }
    this.settle(position);
    return false;
  }
}
