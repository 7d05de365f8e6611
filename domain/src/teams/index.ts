export * from './permissions';
export * from './teams.errors';
export * from './teams.events';
export * from './teams.commands';
export * from './teams.state';
export * from './teams.decide';
export * from './teams.membership';
export * from './teams.invites';
