export * from './clock';
export * from './ids';
export * from './errors';
export * from './decider';
