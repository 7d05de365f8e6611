export * from './backups.errors';
export * from './backups.events';
export * from './backups.decide';
