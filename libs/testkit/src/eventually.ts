/**
 * Asynchronous effects (projections, deliveries, consumers on a bus) land a moment after the call that caused
 * them: asks `probe` again until `done` holds and answers that value. Gives up loudly, with the last value seen,
 * so a test never goes on with a state it did not wait for.
 */
export async function eventually<T>(
  probe: () => T | Promise<T>,
  done: (value: T) => boolean,
  { timeoutMs = 10_000, intervalMs = 10 }: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (done(value)) return value;
    if (Date.now() > deadline) {
      throw new Error(`eventually: not done within ${timeoutMs} ms; last value: ${describe(value)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

function describe(value: unknown): string {
  try {
    return JSON.stringify(value)?.slice(0, 2000) ?? String(value);
  } catch {
    return String(value);
  }
}
