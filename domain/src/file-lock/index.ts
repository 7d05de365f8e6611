export * from './file-lock.errors';
export * from './file-lock.events';
export * from './file-lock.rules';
export * from './file-lock.commands';
export * from './file-lock.state';
export * from './file-lock.decide';
