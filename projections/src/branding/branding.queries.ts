import type { Queryable } from '@axel/platform';

export interface BrandingRow {
  team_id: string;
  company_name: string | null;
  logo_id: string | null;
  logo_mime: string | null;
  logo_width: number | null;
  logo_height: number | null;
  subdomain: string | null;
}

const COLUMNS = 'team_id, company_name, logo_id, logo_mime, logo_width, logo_height, subdomain';

export const brandingOf = async (db: Queryable, teamId: string): Promise<BrandingRow | undefined> =>
  (await db.query<BrandingRow>(`select ${COLUMNS} from team_branding where team_id = $1`, [teamId])).rows[0];

/** The team a custom subdomain belongs to, with its branding. */
export const brandingBySubdomain = async (db: Queryable, subdomain: string): Promise<BrandingRow | undefined> =>
  (await db.query<BrandingRow>(`select ${COLUMNS} from team_branding where subdomain = $1`, [subdomain])).rows[0];
