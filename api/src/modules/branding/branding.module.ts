import { rm } from 'node:fs/promises';
import path from 'node:path';
import { brandingEventDefinitions, brandingStreamName } from '@axel/domain';
import { brandingProjection } from '@axel/projections/branding/branding.projection';
import type { Module } from '../../module';
import { teamIdOfOwner, type TeamPlanOf } from '../teams/teams.commands';
import { brandingRoutes } from './branding.routes';
import { loadBranding, logoDir, removeCustomUrl, runBrandingCommand } from './branding.service';

/** Branding and custom URL of Enterprise teams (spec §6). */
export const createBrandingModule = (deps: { readonly planOf: TeamPlanOf }): Module => ({
  name: 'branding',
  events: brandingEventDefinitions,
  projections: [brandingProjection],
  personalData: { team_branding: ['company_name'] },
  routes: (ctx) => brandingRoutes(ctx, deps.planOf),
  // the owner's account purged: the custom URL is given back, the logo deleted, the company name forgotten
  forget: async (ctx, userId, actor) => {
    const teamId = teamIdOfOwner(userId);
    if ((await ctx.store.readStream(brandingStreamName(teamId))).revision < 0) return;
    const state = await loadBranding(ctx, teamId);
    if (state.subdomain) await removeCustomUrl(ctx, teamId, actor);
    if (state.logo) await rm(path.join(logoDir(ctx), state.logo.logoId), { force: true });
    await runBrandingCommand(ctx, teamId, { type: 'ForgetTeamBranding', data: {} }, actor);
  },
});
