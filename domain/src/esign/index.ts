export * from './esign.errors';
export * from './esign.events';
export * from './esign.commands';
export * from './esign.state';
export * from './esign.decide';
