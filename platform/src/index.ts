export * from './eventstore/port';
export * from './eventstore/streams';
export * from './eventstore/postgres';
export * from './eventstore/postgres.migrations';
export * from './postgres/pool';
export * from './postgres/migrations';
export * from './postgres/embedded';
export * from './ids';
