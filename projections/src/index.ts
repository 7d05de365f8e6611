export * from './runner/projection';
export * from './runner/checkpoints';
export * from './runner/apply';
export * from './runner/runner';
export * from './runner/rebuild';
