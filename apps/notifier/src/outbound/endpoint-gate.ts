interface Lane {
  running: number;
  waiting: Array<() => void>;
}

/**
 * At most `limit` attempts at a time per endpoint; the others wait their turn in order. A slow or failing
 * receiver then holds up only its own deliveries, never another's.
 */
export class EndpointGate {
  private readonly lanes = new Map<string, Lane>();

  constructor(private readonly limit: number) {}

  async run<T>(endpoint: string, task: () => Promise<T>): Promise<T> {
    await this.enter(endpoint);
    try {
      return await task();
    } finally {
      this.leave(endpoint);
    }
  }

  private enter(endpoint: string): Promise<void> {
    const lane = this.lanes.get(endpoint) ?? { running: 0, waiting: [] };
    this.lanes.set(endpoint, lane);
    if (lane.running < this.limit) {
      lane.running += 1;
      return Promise.resolve();
    }
    return new Promise((resolve) => lane.waiting.push(resolve));
  }

  private leave(endpoint: string): void {
    const lane = this.lanes.get(endpoint)!;
    const next = lane.waiting.shift();
    // The slot passes straight to the next in line; an idle lane is forgotten.
    if (next) next();
    else if (--lane.running === 0) this.lanes.delete(endpoint);
  }
}
