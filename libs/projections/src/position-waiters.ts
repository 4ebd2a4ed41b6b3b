interface Waiter {
  position: number;
  resolve: () => void;
  reject: (error: Error) => void;
}

/** Promises that resolve once a reader has reached a global position: how a write waits for its read models. */
export class PositionWaiters {
  private waiters: Waiter[] = [];
  private current = 0;

  wait(position: number): Promise<void> {
    if (this.current >= position) return Promise.resolve();
    return new Promise((resolve, reject) => this.waiters.push({ position, resolve, reject }));
  }

  reached(position: number): void {
    if (position <= this.current) return;
    this.current = position;
    const due = this.waiters.filter((waiter) => waiter.position <= position);
    if (due.length === 0) return;
    this.waiters = this.waiters.filter((waiter) => waiter.position > position);
    due.forEach((waiter) => waiter.resolve());
  }

  rejectAll(error: Error): void {
    const all = this.waiters;
    this.waiters = [];
    all.forEach((waiter) => waiter.reject(error));
  }
}
