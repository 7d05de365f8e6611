export * from './amount';
export * from './wallet.errors';
export * from './ledger';
export * from './sendable';
export * from './replenish-price';
export * from './wallet';
export * from './contacts';
