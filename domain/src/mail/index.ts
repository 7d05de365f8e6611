export * from './mail.events';
