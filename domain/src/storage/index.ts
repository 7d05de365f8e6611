export * from './storage.errors';
export * from './storage.names';
export * from './storage.events';
export * from './storage.commands';
export * from './storage.state';
export * from './storage.decide';
export * from './storage.quota';
export * from './storage.mime';
