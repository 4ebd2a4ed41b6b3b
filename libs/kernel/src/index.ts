export * from './clock';
export * from './ids';
export * from './errors';
export * from './decider';
export * from './lru-cache';
export * from './cooperative';
export * from './canonical-json';
