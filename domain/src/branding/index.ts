export * from './branding';
