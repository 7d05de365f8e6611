export { ActivityPage } from './ActivityPage';
export { TimeTravelPage } from './TimeTravelPage';
export { mayReadActivity } from './activity';
