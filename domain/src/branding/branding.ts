import { z } from 'zod';
import type { Command, Decider } from '../shared/decider';
import { DomainError, defineErrors } from '../shared/errors';
import { defineEvent, erasesOwnStream, type EventOf } from '../shared/events';

/**
 * A team's branding and custom URL (spec §3 Branding, Custom URL; rules §5 Logo and Custom URL;
 * §8 Members and branding). One stream per team (`team-branding-<teamId>`) holds the company name
 * (the owner's words, personal) and the logo; each subdomain has its own stream
 * (`custom-url-<subdomain>`) so two teams never hold one name: the name is taken there first.
 */
export const brandingStreamName = (teamId: string) => `team-branding-${teamId}`;
export const teamIdOfBrandingStream = (streamName: string) => streamName.slice('team-branding-'.length);
export const customUrlStreamName = (subdomain: string) => `custom-url-${subdomain}`;

export const BrandingErrors = defineErrors({
  notAllowed: { code: 'BRANDING_PLAN_REQUIRED', status: 403, message: 'Branding and a custom URL come with the Enterprise plan' },
  nameInvalid: { code: 'BRANDING_NAME_INVALID', status: 400, message: 'The company name or slogan must be 1 to 255 characters' },
  logoInvalid: { code: 'LOGO_INVALID', status: 400, message: 'The logo must be a PNG or JPG image' },
  logoTooLarge: { code: 'LOGO_TOO_LARGE', status: 413, message: 'The logo must be at most 1 MB' },
  logoTooSmall: { code: 'LOGO_TOO_SMALL', status: 400, message: 'The logo must be at least 40x40 pixels' },
  customUrlInvalid: {
    code: 'CUSTOM_URL_INVALID',
    status: 400,
    message: 'Use letters, digits and hyphens, starting with a letter and not ending with a hyphen',
  },
  customUrlUnavailable: { code: 'CUSTOM_URL_UNAVAILABLE', status: 409, message: 'This custom URL is not available' },
  customUrlExists: { code: 'CUSTOM_URL_EXISTS', status: 409, message: 'This custom URL is already taken' },
  noCustomUrl: { code: 'CUSTOM_URL_NOT_SET', status: 404, message: 'The team has no custom URL' },
});

/** Spec §9: a logo is a PNG or JPG of at least 40x40 pixels and at most 1 MB. */
export const LOGO_MAX_BYTES = 1024 * 1024;
export const LOGO_MIN_SIDE = 40;
export const LOGO_MIME_TYPES = ['image/png', 'image/jpeg'] as const;
export const BRANDING_NAME_MAX = 255;
/** A DNS label is at most 63 characters. */
export const SUBDOMAIN_MAX = 63;
/** Names the product itself answers on, or that would mislead: never a team's. */
export const RESERVED_SUBDOMAINS: readonly string[] = [
  'www',
  'api',
  'app',
  'admin',
  'console',
  'mail',
  'smtp',
  'ftp',
  'ipfs',
  'status',
  'support',
  'help',
  'login',
  'signin',
  'static',
  'cdn',
  'axel',
  'drive',
];

const SUBDOMAIN = /^[a-z]([a-z0-9-]*[a-z0-9])?$/;

/**
 * The subdomain as stored: lower case, letters, digits and hyphens, starting with a letter, not
 * ending with a hyphen (spec §5), one DNS label. A reserved name answers "unavailable".
 */
export const parseSubdomain = (typed: string): string => {
  const name = typed.trim().toLowerCase();
  if (!name || name.length > SUBDOMAIN_MAX || !SUBDOMAIN.test(name)) throw new DomainError(BrandingErrors.customUrlInvalid);
  if (RESERVED_SUBDOMAINS.includes(name)) throw new DomainError(BrandingErrors.customUrlUnavailable);
  return name;
};

/** Whether a logo's measured size and dimensions meet the spec, as the error to answer or null. */
export const logoProblem = (size: number, width: number, height: number) => {
  if (size > LOGO_MAX_BYTES) return BrandingErrors.logoTooLarge;
  if (width < LOGO_MIN_SIDE || height < LOGO_MIN_SIDE) return BrandingErrors.logoTooSmall;
  return null;
};

const logo = z.object({
  logoId: z.string(),
  mime: z.enum(LOGO_MIME_TYPES),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  size: z.number().int().positive(),
});
export type Logo = z.infer<typeof logo>;

export const TeamBrandingNameSet = defineEvent('TeamBrandingNameSet', z.object({ companyName: z.string().nullable() }), { personal: ['companyName'] });
export const TeamLogoSet = defineEvent('TeamLogoSet', logo);
export const TeamLogoRemoved = defineEvent('TeamLogoRemoved', z.object({ logoId: z.string() }));
export const TeamCustomUrlSet = defineEvent('TeamCustomUrlSet', z.object({ subdomain: z.string(), previous: z.string().nullable() }));
export const TeamCustomUrlRemoved = defineEvent('TeamCustomUrlRemoved', z.object({ subdomain: z.string() }));
/** The owner's account was purged or the team closed: the company name is forgotten. */
export const TeamBrandingForgotten = defineEvent('TeamBrandingForgotten', z.object({ at: z.string() }), { erases: erasesOwnStream });
export const CustomUrlReserved = defineEvent('CustomUrlReserved', z.object({ teamId: z.string() }));
export const CustomUrlReleased = defineEvent('CustomUrlReleased', z.object({ teamId: z.string() }));

export const brandingEventDefinitions = [
  TeamBrandingNameSet,
  TeamLogoSet,
  TeamLogoRemoved,
  TeamCustomUrlSet,
  TeamCustomUrlRemoved,
  TeamBrandingForgotten,
  CustomUrlReserved,
  CustomUrlReleased,
];

export type BrandingEvent =
  | EventOf<typeof TeamBrandingNameSet>
  | EventOf<typeof TeamLogoSet>
  | EventOf<typeof TeamLogoRemoved>
  | EventOf<typeof TeamCustomUrlSet>
  | EventOf<typeof TeamCustomUrlRemoved>
  | EventOf<typeof TeamBrandingForgotten>;
export type CustomUrlEvent = EventOf<typeof CustomUrlReserved> | EventOf<typeof CustomUrlReleased>;

export interface BrandingState {
  readonly companyName: string | null;
  readonly logo: Logo | null;
  readonly subdomain: string | null;
  readonly forgotten: boolean;
}

export type BrandingCommand =
  | Command<'SetBrandingName', { companyName: string | null }>
  | Command<'SetTeamLogo', Logo>
  | Command<'RemoveTeamLogo', Record<string, never>>
  | Command<'SetTeamCustomUrl', { subdomain: string }>
  | Command<'RemoveTeamCustomUrl', Record<string, never>>
  | Command<'ForgetTeamBranding', Record<string, never>>;

const decideBranding = (command: BrandingCommand, state: BrandingState): BrandingEvent[] => {
  switch (command.type) {
    case 'SetBrandingName': {
      const name = command.data.companyName?.trim() || null;
      if (name !== null && name.length > BRANDING_NAME_MAX) throw new DomainError(BrandingErrors.nameInvalid);
      return name === state.companyName ? [] : [{ type: 'TeamBrandingNameSet', data: { companyName: name } }];
    }
    case 'SetTeamLogo': {
      const problem = logoProblem(command.data.size, command.data.width, command.data.height);
      if (problem) throw new DomainError(problem);
      return state.logo?.logoId === command.data.logoId ? [] : [{ type: 'TeamLogoSet', data: { ...command.data } }];
    }
    case 'RemoveTeamLogo':
      return state.logo ? [{ type: 'TeamLogoRemoved', data: { logoId: state.logo.logoId } }] : [];
    case 'SetTeamCustomUrl': {
      const subdomain = parseSubdomain(command.data.subdomain);
      return subdomain === state.subdomain ? [] : [{ type: 'TeamCustomUrlSet', data: { subdomain, previous: state.subdomain } }];
    }
    case 'RemoveTeamCustomUrl':
      if (!state.subdomain) throw new DomainError(BrandingErrors.noCustomUrl);
      return [{ type: 'TeamCustomUrlRemoved', data: { subdomain: state.subdomain } }];
    case 'ForgetTeamBranding':
      return state.forgotten ? [] : [{ type: 'TeamBrandingForgotten', data: { at: command.metadata.now.toISOString() } }];
  }
};

const evolveBranding = (state: BrandingState, event: BrandingEvent): BrandingState => {
  switch (event.type) {
    case 'TeamBrandingNameSet':
      return { ...state, companyName: event.data.companyName };
    case 'TeamLogoSet':
      return { ...state, logo: event.data };
    case 'TeamLogoRemoved':
      return { ...state, logo: null };
    case 'TeamCustomUrlSet':
      return { ...state, subdomain: event.data.subdomain };
    case 'TeamCustomUrlRemoved':
      return { ...state, subdomain: null };
    case 'TeamBrandingForgotten':
      return { companyName: null, logo: null, subdomain: null, forgotten: true };
  }
};

export const brandingDecider: Decider<BrandingCommand, BrandingEvent, BrandingState> = {
  decide: decideBranding,
  evolve: evolveBranding,
  initialState: () => ({ companyName: null, logo: null, subdomain: null, forgotten: false }),
};

/** Who holds a subdomain: taken by one team at a time, given back only by the team holding it. */
export type CustomUrlCommand = Command<'ReserveCustomUrl', { teamId: string }> | Command<'ReleaseCustomUrl', { teamId: string }>;
export interface CustomUrlState {
  readonly teamId: string | null;
}

export const customUrlDecider: Decider<CustomUrlCommand, CustomUrlEvent, CustomUrlState> = {
  decide: (command, state) => {
    if (command.type === 'ReserveCustomUrl') {
      if (state.teamId === command.data.teamId) return [];
      if (state.teamId !== null) throw new DomainError(BrandingErrors.customUrlExists);
      return [{ type: 'CustomUrlReserved', data: { teamId: command.data.teamId } }];
    }
    return state.teamId === command.data.teamId ? [{ type: 'CustomUrlReleased', data: { teamId: command.data.teamId } }] : [];
  },
  evolve: (_state, event) => ({ teamId: event.type === 'CustomUrlReserved' ? event.data.teamId : null }),
  initialState: () => ({ teamId: null }),
};
