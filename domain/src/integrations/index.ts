export * from './integrations.errors';
export * from './integrations.events';
export * from './integrations.commands';
export * from './integrations.state';
export * from './integrations.decide';
