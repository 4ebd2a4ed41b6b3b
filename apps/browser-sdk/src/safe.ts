/**
 * The SDK runs on someone else's checkout: nothing it does may throw into the page. Every entry point (timers,
 * listeners, observers, patched DOM methods) goes through `safe`, which swallows and forgets.
 */
export function safe<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R | undefined {
  return function (this: unknown, ...args: A): R | undefined {
    try {
      return fn.apply(this, args);
    } catch {
      return undefined;
    }
  };
}

/** A promise whose failure is swallowed: network and crypto errors never surface as unhandled rejections. */
export function quietly(promise: Promise<unknown> | undefined): void {
  if (promise) promise.then(undefined, () => undefined);
}
