export * from './e2ee.errors';
export * from './e2ee.events';
export * from './e2ee.rules';
export * from './e2ee.decide';
export * from './e2ee.signatures';
