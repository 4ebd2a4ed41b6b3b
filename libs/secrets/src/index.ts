export * from './secret-box';
export * from './secret-key';
export * from './in-transit';
