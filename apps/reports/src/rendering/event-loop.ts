/**
 * Lets other work run (requests, timers) between two slices of a long rendering: a report of thousands of rows is
 * drawn or streamed a slice at a time, so the process never stops answering for long.
 */
export const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
