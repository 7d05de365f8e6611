export * from './ipfs.errors';
export * from './ipfs.events';
export * from './ipfs.commands';
export * from './ipfs.state';
export * from './ipfs.decide';
export * from './ipfs.gateway';
export * from './ipfs.settings';
