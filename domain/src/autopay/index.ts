export * from './autopay.events';
export * from './autopay.errors';
export * from './autopay.decide';
export * from './payees';
export * from './program-name';
