export * from './multi-hash';
export * from './sha3-pool';
