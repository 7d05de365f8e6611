import { shareDecider, shareStreamName, type ShareOwnerFacts, type ShareRecord, type ShareState } from '@axel/domain';
import { loadState } from '@axel/platform';
import type { AppContext } from '../../context';

export interface LoadedShare {
  /** Folded from the share's stream: `{ status: 'none' }` when there is no such share. */
  readonly state: ShareState;
  /** The stream's revision (-1 when it does not exist). */
  readonly revision: number;
}

const NONE: LoadedShare = { state: { status: 'none' }, revision: -1 };

/** A share by its id, folded from its own stream: always current, whatever the read models. */
export const loadShare = async (ctx: AppContext, id: string): Promise<LoadedShare> => {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return NONE;
  return loadState(ctx.commands, shareDecider, shareStreamName(id));
};

/** A share by its public link id (the read model maps it to the id; the state comes from the stream). */
export const loadShareByLinkId = async (ctx: AppContext, linkId: string): Promise<LoadedShare> => {
  if (!/^[A-Za-z0-9_-]{22}$/.test(linkId)) return NONE;
  const { rows } = await ctx.pool.query<{ id: string }>('select id from shares where link_id = $1', [linkId]);
  return rows[0] ? loadShare(ctx, rows[0].id) : NONE;
};

/** Where a share is opened: `/shares/<linkId>` or `/private-share/<linkId>` on the public origin. */
export const shareUrl = (ctx: AppContext, share: Pick<ShareRecord, 'kind' | 'linkId'>): string =>
  `${ctx.config.publicUrl}/${share.kind === 'private' ? 'private-share' : 'shares'}/${share.linkId}`;

export interface ShareAccessFigures {
  readonly openedCount: number;
  readonly deliveredOn: string | null;
  /** Lower-cased recipient e-mail -> first open (ISO). */
  readonly recipientsOpenedAt: Readonly<Record<string, string>>;
}

export const NO_ACCESS: ShareAccessFigures = { openedCount: 0, deliveredOn: null, recipientsOpenedAt: {} };

/**
 * What each share holds now, in bytes: its files and every file under its folders, as the storage
 * read model knows them (a file moved into or out of a shared folder, uploaded there or deleted
 * counts at once; trashed items do not). One query for a page of shares.
 */
export const sharedSizesOf = async (ctx: AppContext, shares: readonly ShareRecord[]): Promise<Map<string, number>> => {
  const sizes = new Map<string, number>(shares.map((s) => [s.id, 0]));
  const roots = shares.flatMap((s) => s.items.map((i) => [s.id, s.storageId, i.id] as const));
  if (!roots.length) return sizes;
  const { rows } = await ctx.pool.query<{ share_id: string; total: string | null }>(
    `with recursive tree as (
       select r.share_id, i.id, i.storage_id, i.label, i.size, 0 as depth
         from unnest($1::text[], $2::text[], $3::text[]) as r(share_id, storage_id, item_id)
         join storage_items i on i.id = r.item_id and i.storage_id = r.storage_id and not i.in_trash
       union all
       select tree.share_id, c.id, c.storage_id, c.label, c.size, tree.depth + 1
         from tree join storage_items c on c.folder = tree.id and c.storage_id = tree.storage_id
        where tree.label = 'folder' and not c.in_trash and tree.depth < 1000
     ) select share_id, sum(size) filter (where label = 'file') as total from tree group by share_id`,
    [roots.map((r) => r[0]), roots.map((r) => r[1]), roots.map((r) => r[2])],
  );
  for (const r of rows) sizes.set(r.share_id, Number(r.total ?? 0));
  return sizes;
};

/** A share with its `totalSize` as it is now (see {@link sharedSizesOf}). */
export const withSharedSize = async (ctx: AppContext, share: ShareRecord): Promise<ShareRecord> => ({
  ...share,
  totalSize: (await sharedSizesOf(ctx, [share])).get(share.id) ?? 0,
});

/** A share as its owner sees it (spec §3 Share); recipients only for the owner. */
export const shareJson = (ctx: AppContext, share: ShareRecord, options: { owner: boolean; access?: ShareAccessFigures; now?: Date }) => {
  const access = options.access ?? NO_ACCESS;
  const now = options.now ?? ctx.now();
  return {
    id: share.id,
    shareId: share.id,
    shareLinkId: share.linkId,
    type: 'normal' as const,
    kind: share.kind,
    status: 'active' as const,
    title: share.title,
    name: share.title,
    description: share.description,
    expiresAt: share.expiresAt,
    expired: share.expiresAt !== null && Date.parse(share.expiresAt) <= now.getTime(),
    createdAt: share.createdAt,
    modifiedAt: share.modifiedAt,
    revokedAt: share.revokedAt,
    downloadable: share.downloadable,
    requireLogin: share.requireLogin,
    esign: share.esign,
    hasPassword: share.passwordHash !== null,
    url: shareUrl(ctx, share),
    storageId: share.storageId,
    ownerId: share.ownerId,
    personal: true,
    totalSize: share.totalSize,
    openedCount: access.openedCount,
    deliveredOn: access.deliveredOn,
    items: share.items.map((i) => ({ id: i.id, kind: i.kind, label: i.kind, name: i.name, size: i.size })),
    ...(options.owner && share.kind === 'private'
      ? { recipients: share.recipients.map((r) => ({ email: r.email, blocked: r.blocked, openedAt: access.recipientsOpenedAt[r.email] ?? null })) }
      : {}),
  };
};

/**
 * Opened count, delivered-on and each recipient's first open, from the access read model when the
 * share-access slice runs (without it, nothing was ever opened).
 */
export const accessFiguresOf = async (ctx: AppContext, shareIds: readonly string[]): Promise<Map<string, ShareAccessFigures>> => {
  const figures = new Map<string, ShareAccessFigures>();
  if (!shareIds.length) return figures;
  try {
    const [summary, recipients] = await Promise.all([
      ctx.pool.query<{ share_id: string; opened_count: number; delivered_on: Date | null }>(
        'select share_id, opened_count, delivered_on from share_access_summary where share_id = any($1)',
        [shareIds],
      ),
      ctx.pool.query<{ share_id: string; email: string; opened_at: Date }>(
        'select share_id, email, opened_at from share_access_recipients where share_id = any($1)',
        [shareIds],
      ),
    ]);
    for (const r of summary.rows) {
      figures.set(r.share_id, { openedCount: r.opened_count, deliveredOn: r.delivered_on?.toISOString() ?? null, recipientsOpenedAt: {} });
    }
    for (const r of recipients.rows) {
      const f = figures.get(r.share_id) ?? { ...NO_ACCESS };
      figures.set(r.share_id, { ...f, recipientsOpenedAt: { ...f.recipientsOpenedAt, [r.email]: r.opened_at.toISOString() } });
    }
  } catch (error) {
    // 42P01: the access tables are not there (the access slice is not part of this build)
    if ((error as { code?: string }).code !== '42P01') throw error;
  }
  return figures;
};

/**
 * The owners of shares as the accounts know them now, in one query: their first and last name
 * from their profile, else their user name (null without either), and their e-mail. A purged
 * owner has neither any more.
 */
export const shareOwnersOf = async (ctx: AppContext, ownerIds: readonly string[]): Promise<Map<string, ShareOwnerFacts>> => {
  const owners = new Map<string, ShareOwnerFacts>();
  if (!ownerIds.length) return owners;
  const { rows } = await ctx.pool.query<{
    id: string;
    first_name: string | null;
    last_name: string | null;
    username: string | null;
    email: string | null;
    purged: boolean;
  }>(
    `select id, profile->>'firstName' as first_name, profile->>'lastName' as last_name, username, email, purged_at is not null as purged from users where id = any($1)`,
    [[...new Set(ownerIds)]],
  );
  for (const row of rows) {
    if (row.purged) continue;
    const fullName = [row.first_name, row.last_name]
      .map((part) => part?.trim())
      .filter(Boolean)
      .join(' ');
    owners.set(row.id, { name: fullName || row.username?.trim() || null, email: row.email });
  }
  return owners;
};
