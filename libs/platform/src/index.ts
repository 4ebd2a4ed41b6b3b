export * from './platform.module';
export * from './aggregate-repository';
export * from './discovery';
export * from './platform.lifecycle';
export * from './tokens';
export type { Adapters } from './adapters';
export * from './logger';
export * from './public.decorator';
export * from './reservation.decider';
