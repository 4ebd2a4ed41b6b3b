export interface ContainerRuntime {
  available: boolean;
  reason?: string;
}

/** Asks testcontainers itself, so the answer is the one the suites would get. */
export async function detectContainerRuntime(): Promise<ContainerRuntime> {
  if (process.env.PSS_CONTAINER_RUNTIME) {
    const value = process.env.PSS_CONTAINER_RUNTIME;
    return value === 'available' ? { available: true } : { available: false, reason: value.replace(/^unavailable: /, '') };
  }
  try {
    const { getContainerRuntimeClient } = await import('testcontainers');
    await getContainerRuntimeClient();
    return { available: true };
  } catch (error) {
    return { available: false, reason: (error as Error).message.split('\n')[0] };
  }
}
