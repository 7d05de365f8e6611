export * from './runner/projection';
export * from './runner/checkpoints';
export * from './runner/apply';
export * from './runner/runner';
export * from './runner/rebuild';
export * from './mail/outbox.projection';
export * from './users/users.projection';
export * from './notifications/notifications.projection';
