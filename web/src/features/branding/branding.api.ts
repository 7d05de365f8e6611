import { api } from '../../api/client';

export interface TeamBranding {
  teamId: string | null;
  companyName: string | null;
  logoUrl: string | null;
  logoWidth: number | null;
  logoHeight: number | null;
  subdomain: string | null;
  customUrl: string | null;
  canManage: boolean;
  brandingAllowed: boolean;
  customUrlAllowed: boolean;
  customUrlDomain: string;
}

/** Spec §9: a logo is a PNG or JPG, at least 40x40, at most 1 MB. */
export const LOGO_MAX_BYTES = 1024 * 1024;
export const LOGO_TYPES = ['image/png', 'image/jpeg'] as const;
/** Spec §5: letters, digits and hyphens, starting with a letter, not ending with a hyphen. */
export const subdomainProblem = (typed: string): 'required' | 'shape' | null => {
  const name = typed.trim().toLowerCase();
  if (!name) return 'required';
  return name.length <= 63 && /^[a-z]([a-z0-9-]*[a-z0-9])?$/.test(name) ? null : 'shape';
};

const team = (teamId: string) => `/teams/${encodeURIComponent(teamId)}`;

export const brandingApi = {
  mine: (userId: string) => api.get<TeamBranding>(`/users/${encodeURIComponent(userId)}/branding`),
  setName: (teamId: string, companyName: string | null) => api.put<TeamBranding>(`${team(teamId)}/branding`, { companyName }),
  uploadLogo: (teamId: string, file: Blob) => api.request<TeamBranding>('POST', `${team(teamId)}/branding/logo`, { rawBody: file, contentType: file.type }),
  removeLogo: (teamId: string) => api.delete<TeamBranding>(`${team(teamId)}/branding/logo`),
  setCustomUrl: (teamId: string, subdomain: string) => api.put<TeamBranding>(`${team(teamId)}/custom-url`, { subdomain }),
  removeCustomUrl: (teamId: string) => api.delete<TeamBranding>(`${team(teamId)}/custom-url`),
};
