import 'reflect-metadata';
import { MODULE_METADATA } from '@nestjs/common/constants';
import { PATTERN_HANDLER_METADATA, PATTERN_METADATA } from '@nestjs/microservices/constants';
import { PatternHandler } from '@nestjs/microservices/enums/pattern-handler.enum';
import { AlertsModule } from '@pss/alerts/src/alerts.module';
import { CONSUMER_GROUPS } from '@pss/api-gateway/src/openapi/asyncapi/asyncapi-document';
import { InventoryModule } from '@pss/inventory/src/inventory.module';
import { NotifierModule } from '@pss/notifier/src/notifier.module';
import { ReportsModule } from '@pss/reports/src/reports.module';

type Class = abstract new (...args: never[]) => unknown;
type Imported = { module?: unknown; imports?: unknown[]; controllers?: unknown[] } | Class;

/** Every controller a module brings, through its imports and dynamic modules. */
function controllersOf(imported: Imported, seen = new Set<unknown>()): Class[] {
  if (!imported || seen.has(imported)) return [];
  seen.add(imported);
  const dynamic = typeof imported === 'object' ? imported : undefined;
  const module = dynamic?.module ?? imported;
  const read = (key: string): unknown[] => [...((Reflect.getMetadata(key, module as object) as unknown[] | undefined) ?? []), ...((dynamic?.[key as 'imports'] as unknown[] | undefined) ?? [])];
  const own = read(MODULE_METADATA.CONTROLLERS) as Class[];
  return [...own, ...read(MODULE_METADATA.IMPORTS).flatMap((child) => controllersOf(child as Imported, seen))];
}

/** The topics a service's consumer group subscribes to: its `@EventPattern`s. */
function subscriptionsOf(module: Imported): string[] {
  const topics = controllersOf(module).flatMap((controller) =>
    Object.getOwnPropertyNames(controller.prototype).flatMap((name) => {
      const handler = (controller.prototype as Record<string, unknown>)[name];
      if (typeof handler !== 'function' || Reflect.getMetadata(PATTERN_HANDLER_METADATA, handler) !== PatternHandler.EVENT) return [];
      return (Reflect.getMetadata(PATTERN_METADATA, handler) as unknown[]).flat() as string[];
    }),
  );
  return [...new Set(topics)].sort();
}

describe('the consumer groups the AsyncAPI document and docs/events.md name', () => {
  it.each([
    ['inventory', InventoryModule],
    ['alerts', AlertsModule],
    ['reports', ReportsModule],
    ['notifier', NotifierModule],
  ] as const)('are the topics the %s service subscribes to', (group, module) => {
    expect([...CONSUMER_GROUPS[group]].sort()).toEqual(subscriptionsOf(module));
  });
});
