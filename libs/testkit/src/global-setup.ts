import { detectContainerRuntime } from './container-runtime';

/**
 * Runs once before all test files: finds out whether a container runtime is reachable, so suites against real
 * Kafka, EventStoreDB and MongoDB can decide synchronously (inside `describe`) whether to run.
 */
export default async function globalSetup(): Promise<void> {
  const runtime = await detectContainerRuntime();
  process.env.PSS_CONTAINER_RUNTIME = runtime.available ? 'available' : `unavailable: ${runtime.reason}`;
}
