import type { Module } from '../../module';
import { supportRoutes } from './support.routes';

/**
 * Contact support (the 600 px dialog's form, with an attachment) and contact the owner of one's
 * team or group. Messages are mails: nothing is kept beyond the mail log and the outbox. Who owns a
 * member's team comes from the teams read model (the teams module's).
 */
export const supportModule: Module = {
  name: 'support',
  routes: supportRoutes,
};
