export * from './ops-command';
export * from './ops-registry';
export * from './ops-server';
export * from './ops-client';
export * from './ops.module';
