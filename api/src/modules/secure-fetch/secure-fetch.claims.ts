import { isLink } from '@axel/domain';
import type { AppContext } from '../../context';
import type { StorageBytes } from '../files/storage.bytes';
import { linkByHandle } from './secure-fetch.service';
import { unlessSubmitting } from './secure-fetch.submission';

/**
 * How long a submission's claim on an upload may stand without the submission being recorded: a
 * submission claims, records and lets go in seconds, so a claim this old was left by a process that
 * stopped in between (one still running holds its link's lock, and keeps its claims however slow).
 */
export const STALE_CLAIM_MS = 60 * 60_000;

/** How often the worker looks for claims left behind. */
export const STALE_CLAIM_SWEEP_EVERY_MS = 5 * 60_000;

/**
 * Gives back the claims of submissions that never completed: claimed more than `STALE_CLAIM_MS`
 * ago, no submission of their link under way, and not among the files the link's submission
 * recorded. Each such upload is discarded and its reserved space returned to the owner. Answers how
 * many were given back.
 */
export const giveBackStaleClaims = async (ctx: AppContext, bytes: StorageBytes): Promise<number> => {
  const claimedBefore = new Date(ctx.now().getTime() - STALE_CLAIM_MS);
  const byLink = new Map<string, string[]>();
  for (const { uploadId, linkId } of await bytes.uploads.linkClaimsBefore(claimedBefore)) byLink.set(linkId, [...(byLink.get(linkId) ?? []), uploadId]);
  let given = 0;
  for (const [linkId, uploadIds] of byLink) {
    await unlessSubmitting(ctx, linkId, async () => {
      // files of a recorded submission are being (or were) made into the owner's files: kept (a link
      // that cannot be read now gives nothing back: the sweep fails and tries again next time)
      const link = await linkByHandle(ctx, linkId);
      const submitted = new Set(isLink(link) && link.submission ? link.submission.files.map((f) => f.uploadId) : []);
      for (const uploadId of uploadIds) {
        if (submitted.has(uploadId)) continue;
        if (await bytes.uploads.discardClaim(uploadId, linkId, claimedBefore)) given++;
      }
    });
  }
  if (given) ctx.log.warn({ component: 'secure-fetch', given }, 'claims of submissions that never completed given back');
  return given;
};

/** The worker's sweep of claims left behind, every `STALE_CLAIM_SWEEP_EVERY_MS`; answers its stop. */
export const startStaleClaimSweep = (ctx: AppContext, bytes: StorageBytes): (() => Promise<void>) => {
  let running: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    running = running
      .then(() => giveBackStaleClaims(ctx, bytes))
      .catch((error: unknown) => ctx.log.error({ component: 'secure-fetch', err: error }, 'the sweep of stale claims failed'));
  }, STALE_CLAIM_SWEEP_EVERY_MS);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
};
