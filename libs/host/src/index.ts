export * from './service-app';
export * from './run-service';
