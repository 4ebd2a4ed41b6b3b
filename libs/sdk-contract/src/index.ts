// What the browser SDK, the gateway and inventory must agree on to the byte. Browser code: no Node module here.
export * from '@pss/contracts/sdk/connections';
export * from './recipient-key';
export * from './script-identity';
export * from './sdk-key';
export * from './security-headers';
export * from './url-tag';
export * from './version';
