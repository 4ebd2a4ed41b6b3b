export * from './containers';
export * from './container-runtime';
export * from './decider-spec';
export * from './eventually';
export * from './manual-clock';
export * from './sri';
export * from './projection-replay';
export * from './prometheus';
