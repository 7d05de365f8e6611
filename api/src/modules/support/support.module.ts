import { teamEventDefinitions } from '@axel/domain';
import { teamsProjection } from '@axel/projections/teams/teams.projection';
import type { Module } from '../../module';
import { supportRoutes } from './support.routes';

/**
 * Contact support (the 600 px dialog's form, with an attachment) and contact the owner of one's
 * team or group. Messages are mails: nothing is kept beyond the mail log and the outbox. The teams
 * read model answers who owns a member's team; until the teams module registers it, this one does.
 */
export const supportModule: Module = {
  name: 'support',
  events: teamEventDefinitions,
  projections: [teamsProjection],
  routes: supportRoutes,
};
