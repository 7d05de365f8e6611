import { brandingOf } from '@axel/projections/branding/branding.queries';
import { teamJoinedBy } from '@axel/projections/teams/teams.queries';
import type { AppContext } from '../../context';
import { entitlementsOf } from '../billing/billing.service';
import { brandingJson } from '../branding/branding.service';
import { teamIdOfOwner } from '../teams/teams.commands';

export interface ShareBranding {
  companyName: string | null;
  logoUrl: string | null;
}

/**
 * The branding a share page shows: that of the Enterprise team the share's owner owns or belongs
 * to, while the team's plan includes branding and it has a name or a logo; null otherwise.
 */
export const shareBrandingOf = async (ctx: AppContext, ownerId: string): Promise<ShareBranding | null> => {
  const owned = await brandingOf(ctx.pool, teamIdOfOwner(ownerId));
  const teamId = owned ? teamIdOfOwner(ownerId) : (await teamJoinedBy(ctx.pool, ownerId))?.team_id;
  if (!teamId) return null;
  const row = owned ?? (await brandingOf(ctx.pool, teamId));
  if (!row || (!row.company_name && !row.logo_id)) return null;
  if (!(await entitlementsOf(ctx, teamId)).features.includes('branding')) return null;
  const { companyName, logoUrl } = brandingJson(ctx, teamId, row);
  return { companyName, logoUrl };
};
