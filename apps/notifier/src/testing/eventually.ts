/** Deliveries are asynchronous: asks `probe` again until `done` says so, for 2 seconds at most, and answers its last value. */
export async function eventually<T>(probe: () => T | Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (const deadline = Date.now() + 2000; ; ) {
    const value = await probe();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
