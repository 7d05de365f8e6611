export * from './residency';
