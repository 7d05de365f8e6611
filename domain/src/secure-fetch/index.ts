export * from './secure-fetch.errors';
export * from './secure-fetch.events';
export * from './secure-fetch.commands';
export * from './secure-fetch.state';
export * from './secure-fetch.decide';
export * from './secure-fetch.certificate';
