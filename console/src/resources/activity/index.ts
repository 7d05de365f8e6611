export { ActivityPage } from './ActivityPage';
export { TimeTravelPage } from './TimeTravelPage';
export { activityMessages } from './activity.messages';
export { mayReadActivity } from './activity';
