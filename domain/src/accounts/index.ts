export * from './accounts.errors';
export * from './accounts.validation';
export * from './accounts.events';
export * from './accounts.commands';
export * from './accounts.state';
export * from './accounts.decide';
export * from './staff-rank';
export * from './sign-in-guard';
