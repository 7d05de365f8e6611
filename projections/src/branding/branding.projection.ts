import { teamIdOfBrandingStream, type BrandingEvent } from '@axel/domain';
import { defineProjection } from '../runner/projection';

/**
 * Each team's branding (company name, logo) and custom URL, one row per team; the subdomain is
 * unique here as well as in its reservation stream, so a host name finds its team by index.
 */
export const brandingProjection = defineProjection<'team_branding', BrandingEvent>({
  name: 'team_branding',
  handles: ['TeamBrandingNameSet', 'TeamLogoSet', 'TeamLogoRemoved', 'TeamCustomUrlSet', 'TeamCustomUrlRemoved', 'TeamBrandingForgotten'],
  tables: {
    team_branding: (t) => `create table "${t}" (
        team_id text primary key,
        company_name text,
        logo_id text,
        logo_mime text,
        logo_width int,
        logo_height int,
        subdomain text unique,
        modified_at timestamptz not null
      );`,
  },
  async apply(tx, events, t) {
    const B = `"${t.team_branding}"`;
    for (const e of events) {
      const teamId = teamIdOfBrandingStream(e.streamName);
      /** The team's row, made on its first event, with these columns set. */
      const set = async (columns: string, values: unknown[]) => {
        await tx.query(`insert into ${B} (team_id, modified_at) values ($1, $2) on conflict (team_id) do nothing`, [teamId, e.recordedAt]);
        await tx.query(`update ${B} set ${columns}, modified_at = $2 where team_id = $1`, [teamId, e.recordedAt, ...values]);
      };
      switch (e.type) {
        case 'TeamBrandingNameSet':
          await set('company_name = $3', [e.data.companyName]);
          break;
        case 'TeamLogoSet':
          await set('logo_id = $3, logo_mime = $4, logo_width = $5, logo_height = $6', [e.data.logoId, e.data.mime, e.data.width, e.data.height]);
          break;
        case 'TeamLogoRemoved':
          await set('logo_id = null, logo_mime = null, logo_width = null, logo_height = null', []);
          break;
        case 'TeamCustomUrlSet':
          await set('subdomain = $3', [e.data.subdomain]);
          break;
        case 'TeamCustomUrlRemoved':
          await set('subdomain = null', []);
          break;
        case 'TeamBrandingForgotten':
          await tx.query(`delete from ${B} where team_id = $1`, [teamId]);
          break;
      }
    }
  },
});
