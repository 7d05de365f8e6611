export * from './bookmarks.errors';
export * from './bookmarks.titles';
export * from './bookmarks.events';
export * from './bookmarks.commands';
export * from './bookmarks.state';
export * from './bookmarks.decide';
