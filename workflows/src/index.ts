export * from './model/process';
export * from './runtime/clock';
export * from './runtime/port';
export * from './embedded/migrations';
export * from './embedded/runtime';
export * from './account-deletion/account-deletion.process';
export * from './catalog';
