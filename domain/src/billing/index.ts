export * from './billing.catalogue';
export * from './billing.errors';
export * from './billing.events';
export * from './billing.state';
export * from './billing.entitlements';
export * from './billing.decide';
export * from './billing.payments';
export * from './promo-code';
