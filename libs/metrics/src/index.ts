export * from './metrics';
export * from './measured-event-store';
export * from './metrics-endpoint';
