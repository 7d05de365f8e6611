export * from './notifications';
export * from './user-agent';
export * from './notification-texts';
