import type { DiscoveryService } from '@nestjs/core';

/**
 * Class decorators that let a feature module contribute to the platform by being a provider, nothing more
 * (projections are marked by `readModelProjection` or `@ReadModelProjection()` from `@pss/projections`).
 */
export const INTEGRATION_SOURCE_METADATA = 'pss:integration-source';

/** Marks a provider as the integration-event source of a service (implements `IntegrationEventSource`). */
export const PublishesIntegrationEvents = (): ClassDecorator => (target) =>
  Reflect.defineMetadata(INTEGRATION_SOURCE_METADATA, true, target);

export function discoverProviders<T>(discovery: DiscoveryService, metadataKey: string): T[] {
  return discovery
    .getProviders()
    .filter((wrapper) => wrapper.metatype && wrapper.instance && Reflect.getMetadata(metadataKey, wrapper.metatype))
    .map((wrapper) => wrapper.instance as T);
}
