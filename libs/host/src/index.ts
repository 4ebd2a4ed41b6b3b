export * from './service-app';
export * from './run-service';
export * from './dead-letters.ops';
export { carriesBody } from './json-body';
