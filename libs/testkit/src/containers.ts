/**
 * `describe` for suites that run against a real server in a container (testcontainers). Where no container
 * runtime is reachable the suite is skipped with one line saying why: never a fake server in its place.
 */
export function describeWithContainers(name: string, suite: () => void): void {
  const runtime = process.env.PSS_CONTAINER_RUNTIME ?? 'unavailable: global setup did not run';
  if (runtime === 'available') {
    describe(name, suite);
    return;
  }
  // Written straight to stdout: Jest's console buffering drops lines logged while test files are collected.
  process.stdout.write(`[skipped] ${name}: no container runtime (${runtime.replace(/^unavailable: /, '')})\n`);
  // The one sanctioned skip: the real-server half of a conformance suite on a machine without containers.
  describe.skip(name, suite);
}

/** Container start-up pulls images: give those suites room. */
export const CONTAINER_TIMEOUT_MS = 180_000;
