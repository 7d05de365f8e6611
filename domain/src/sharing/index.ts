export * from './sharing.errors';
export * from './sharing.events';
export * from './sharing.rules';
export * from './sharing.commands';
export * from './sharing.state';
export * from './sharing.decide';
export * from './sharing.access';
export * from './share-counter';
