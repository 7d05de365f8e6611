export * from './amount';
export * from './wallet.errors';
export * from './ledger';
export * from './sendable';
export * from './wallet';
export * from './contacts';
