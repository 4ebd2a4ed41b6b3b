import { Logger, Module, type DynamicModule } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { BusModule, type BusConfig } from '@pss/bus';
import { SERVICE_CONFIG, type ServiceConfig } from '@pss/config';
import { CHECKPOINT_STORE, EVENT_STORE } from '@pss/event-store';
import { FILE_STORE } from '@pss/files';
import { CLOCK, systemClock, type Clock } from '@pss/kernel';
import { measureAppends, Metrics } from '@pss/metrics';
import { ProjectionRunner } from '@pss/projections';
import { READ_STORE } from '@pss/read-store';
import { loadSecretKey, SecretBox, secretKeyFile } from '@pss/secrets';
import { openAdapters, type Adapters } from './adapters';
import { AggregateRepository } from './aggregate-repository';
import { HealthController } from './health.controller';
import { PlatformLifecycle } from './platform.lifecycle';
import { PlatformMetrics } from './platform.metrics';
import { ADAPTERS, PLATFORM_OPTIONS, type PlatformOptions } from './tokens';

export interface PlatformModuleOptions extends Partial<PlatformOptions> {
  config: ServiceConfig;
  bus: BusConfig;
  clock?: Clock;
  /** Tests only: connections to engines shared with other applications, instead of those the configuration names. */
  adapters?: (config: ServiceConfig, clock: Clock) => Promise<Adapters>;
}

/** The ports of a service, wired to the adapters its configuration names, and their lifecycle. */
@Module({})
export class PlatformModule {
  static forRoot(options: PlatformModuleOptions): DynamicModule {
    const clock = options.clock ?? systemClock;
    return {
      module: PlatformModule,
      global: true,
      imports: [DiscoveryModule, BusModule.forRoot(options.bus)],
      controllers: [HealthController],
      providers: [
        { provide: SERVICE_CONFIG, useValue: options.config },
        { provide: CLOCK, useValue: clock },
        { provide: PLATFORM_OPTIONS, useValue: { background: options.background ?? true } },
        { provide: Metrics, useFactory: () => new Metrics() },
        {
          provide: ADAPTERS,
          useFactory: async (metrics: Metrics): Promise<Adapters> => {
            const adapters = await (options.adapters ?? openAdapters)(options.config, clock);
            return { ...adapters, eventStore: measureAppends(adapters.eventStore, metrics) };
          },
          inject: [Metrics],
        },
        { provide: EVENT_STORE, useFactory: (adapters: Adapters) => adapters.eventStore, inject: [ADAPTERS] },
        { provide: READ_STORE, useFactory: (adapters: Adapters) => adapters.readStore, inject: [ADAPTERS] },
        { provide: CHECKPOINT_STORE, useFactory: (adapters: Adapters) => adapters.checkpoints, inject: [ADAPTERS] },
        { provide: FILE_STORE, useFactory: (adapters: Adapters) => adapters.files, inject: [ADAPTERS] },
        {
          provide: ProjectionRunner,
          useFactory: (adapters: Adapters) => new ProjectionRunner(adapters.eventStore, adapters.readStore, new Logger('Projections')),
          inject: [ADAPTERS],
        },
        { provide: SecretBox, useFactory: () => secretBox(options.config) },
        AggregateRepository,
        PlatformLifecycle,
        PlatformMetrics,
      ],
      exports: [SERVICE_CONFIG, PLATFORM_OPTIONS, CLOCK, Metrics, SecretBox, EVENT_STORE, READ_STORE, CHECKPOINT_STORE, FILE_STORE, ProjectionRunner, AggregateRepository, PlatformLifecycle],
    };
  }
}

/**
 * One key for every sealed secret of the process; every service and replica must share it in distributed mode
 * (SECRET_KEY, or one SECRET_KEY_FILE they all reach): webhook secrets cross the bus sealed with it.
 */
function secretBox(config: ServiceConfig): SecretBox {
  if (config.mode === 'distributed' && !process.env.SECRET_KEY && !process.env.SECRET_KEY_FILE) {
    new Logger('Platform').warn({ message: 'Neither SECRET_KEY nor SECRET_KEY_FILE is set: secrets are sealed with a key file of this process, which every service must share', file: secretKeyFile(config.dataDir) });
  }
  return new SecretBox(() => loadSecretKey(process.env, config.dataDir));
}
