export * from './devices.errors';
export * from './devices.events';
export * from './devices.commands';
export * from './devices.identity';
export * from './devices.state';
export * from './devices.decide';
