export * from './support';
export * from './integrations';
