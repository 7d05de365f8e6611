export * from './shared';
export * from './accounts';
