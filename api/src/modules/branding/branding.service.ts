import { mkdir, rm, writeFile } from 'node:fs/promises';
import { isIP } from 'node:net';
import path from 'node:path';
import {
  BrandingErrors,
  brandingDecider,
  brandingStreamName,
  customUrlDecider,
  customUrlStreamName,
  DomainError,
  LOGO_MAX_BYTES,
  logoProblem,
  parseSubdomain,
  type BrandingCommand,
  type BrandingState,
  type Logo,
} from '@axel/domain';
import { newId, handleCommand, loadState, type CommandContext } from '@axel/platform';
import type { BrandingRow } from '@axel/projections/branding/branding.queries';
import sharp, { type Metadata, type OutputInfo } from 'sharp';
import type { AppContext } from '../../context';

type Without<C> = C extends { metadata: unknown } ? Omit<C, 'metadata'> : never;

export const runBrandingCommand = async (ctx: AppContext, teamId: string, command: Without<BrandingCommand>, actor: CommandContext) => {
  const result = await handleCommand(
    ctx.commands,
    brandingDecider,
    brandingStreamName(teamId),
    { ...command, metadata: { now: ctx.now() } } as BrandingCommand,
    actor,
  );
  if (result.position) await ctx.caughtUp(result.position);
  return result;
};

export const loadBranding = async (ctx: AppContext, teamId: string): Promise<BrandingState> =>
  (await loadState(ctx.commands, brandingDecider, brandingStreamName(teamId))).state;

const customUrlCommand = (ctx: AppContext, subdomain: string, type: 'ReserveCustomUrl' | 'ReleaseCustomUrl', teamId: string, actor: CommandContext) =>
  handleCommand(ctx.commands, customUrlDecider, customUrlStreamName(subdomain), { type, data: { teamId }, metadata: { now: ctx.now() } }, actor);

/**
 * Gives the team the subdomain: taken in its own stream first (409 when another team holds it),
 * then set on the team, then the one it replaces given back. A refusal between the two gives the
 * new name back; a crash there leaves it held by this team, which may set it again.
 */
export const setCustomUrl = async (ctx: AppContext, teamId: string, typed: string, actor: CommandContext) => {
  const subdomain = parseSubdomain(typed);
  const before = await loadBranding(ctx, teamId);
  if (before.subdomain === subdomain) return before;
  await customUrlCommand(ctx, subdomain, 'ReserveCustomUrl', teamId, actor);
  let state: BrandingState;
  try {
    state = (await runBrandingCommand(ctx, teamId, { type: 'SetTeamCustomUrl', data: { subdomain } }, actor)).state;
  } catch (error) {
    await customUrlCommand(ctx, subdomain, 'ReleaseCustomUrl', teamId, actor).catch(() => undefined);
    throw error;
  }
  if (before.subdomain) await customUrlCommand(ctx, before.subdomain, 'ReleaseCustomUrl', teamId, actor);
  return state;
};

export const removeCustomUrl = async (ctx: AppContext, teamId: string, actor: CommandContext) => {
  const before = await loadBranding(ctx, teamId);
  const result = await runBrandingCommand(ctx, teamId, { type: 'RemoveTeamCustomUrl', data: {} }, actor);
  if (before.subdomain) await customUrlCommand(ctx, before.subdomain, 'ReleaseCustomUrl', teamId, actor);
  return result.state;
};

export const logoDir = (ctx: AppContext) => path.join(ctx.config.dataDir, 'logos');

/**
 * Measures and re-encodes a logo with sharp: PNG or JPG only (by its content, not its name), at least
 * 40x40, at most 1 MB; turned by its EXIF orientation and stripped of metadata (camera, place).
 */
export const readLogo = async (body: Buffer): Promise<{ logo: Omit<Logo, 'logoId'>; bytes: Buffer }> => {
  if (body.length > LOGO_MAX_BYTES) throw new DomainError(BrandingErrors.logoTooLarge);
  let meta: Metadata;
  try {
    meta = await sharp(body, { limitInputPixels: 50_000_000 }).metadata();
  } catch {
    throw new DomainError(BrandingErrors.logoInvalid);
  }
  if (meta.format !== 'png' && meta.format !== 'jpeg') throw new DomainError(BrandingErrors.logoInvalid);
  const mime = meta.format === 'png' ? ('image/png' as const) : ('image/jpeg' as const);
  let bytes: Buffer;
  let info: OutputInfo;
  try {
    const image = sharp(body, { limitInputPixels: 50_000_000 }).rotate();
    ({ data: bytes, info } = await (mime === 'image/png' ? image.png({ compressionLevel: 9 }) : image.jpeg({ quality: 90, mozjpeg: true })).toBuffer({
      resolveWithObject: true,
    }));
  } catch {
    throw new DomainError(BrandingErrors.logoInvalid);
  }
  const problem = logoProblem(body.length, info.width, info.height);
  if (problem) throw new DomainError(problem);
  return { logo: { mime, width: info.width, height: info.height, size: bytes.length }, bytes };
};

export const storeLogo = async (ctx: AppContext, teamId: string, body: Buffer, actor: CommandContext) => {
  const { logo, bytes } = await readLogo(body);
  const logoId = newId();
  await mkdir(logoDir(ctx), { recursive: true });
  await writeFile(path.join(logoDir(ctx), logoId), bytes);
  const before = await loadBranding(ctx, teamId);
  try {
    const result = await runBrandingCommand(ctx, teamId, { type: 'SetTeamLogo', data: { logoId, ...logo } }, actor);
    if (before.logo) await rm(path.join(logoDir(ctx), before.logo.logoId), { force: true });
    return result.state;
  } catch (error) {
    await rm(path.join(logoDir(ctx), logoId), { force: true });
    throw error;
  }
};

/** The domain custom URLs live under (see CUSTOM_URL_DOMAIN). */
export const customUrlDomain = (ctx: AppContext): string => {
  if (ctx.config.CUSTOM_URL_DOMAIN) return ctx.config.CUSTOM_URL_DOMAIN;
  const host = new URL(ctx.config.publicUrl).hostname.replace(/^\[|\]$/g, '');
  return isIP(host) ? 'localhost' : host;
};

/** A team's address on its custom URL: the public URL's scheme and port, on `<subdomain>.<domain>`. */
export const customUrlOf = (ctx: AppContext, subdomain: string): string => {
  const main = new URL(ctx.config.publicUrl);
  return `${main.protocol}//${subdomain}.${customUrlDomain(ctx)}${main.port ? `:${main.port}` : ''}`;
};

/** The subdomain a request's host names under the custom URL domain, if it names one. */
export const subdomainOfHost = (ctx: AppContext, host: string): string | null => {
  const name = host.toLowerCase().replace(/:\d+$/, '').replace(/\.$/, '');
  const suffix = `.${customUrlDomain(ctx)}`;
  if (!name.endsWith(suffix)) return null;
  const sub = name.slice(0, -suffix.length);
  try {
    return parseSubdomain(sub) === sub ? sub : null;
  } catch {
    return null;
  }
};

export const brandingJson = (ctx: AppContext, teamId: string, row: BrandingRow | undefined) => ({
  teamId,
  companyName: row?.company_name ?? null,
  logoUrl: row?.logo_id ? `/api/teams/${encodeURIComponent(teamId)}/branding/logo?v=${row.logo_id}` : null,
  logoWidth: row?.logo_width ?? null,
  logoHeight: row?.logo_height ?? null,
  subdomain: row?.subdomain ?? null,
  customUrl: row?.subdomain ? customUrlOf(ctx, row.subdomain) : null,
});
