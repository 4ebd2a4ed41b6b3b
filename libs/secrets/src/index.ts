export * from './secret-box';
export * from './secret-key';
