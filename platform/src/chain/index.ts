export * from './port';
export * from './base58check';
export * from './development-chain';
export * from './json-rpc';
