export * from './shared';
export * from './accounts';
export * from './mail';
export * from './notifications';
export * from './storage';
export * from './wallet';
export * from './billing';
export * from './autopay';
