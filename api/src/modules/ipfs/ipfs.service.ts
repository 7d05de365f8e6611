import {
  DomainError,
  IpfsErrors,
  ipfsPinDecider,
  ipfsPinStreamName,
  ipfsSettingsDecider,
  ipfsSettingsStreamName,
  isPin,
  type IpfsPinCommand,
  type IpfsPinState,
  type IpfsSettingsCommand,
  type SecureFetchLink,
} from '@axel/domain';
import { deterministicId, handleCommand, loadState, type CommandContext } from '@axel/platform';
import type { PinnableDag, PinningService } from '@axel/platform/ipfs/pinning';
import { livePinsOf } from '@axel/projections/ipfs/ipfs-pins.queries';
import type { AppContext } from '../../context';
import type { FileContent, FileManifest } from '../files/contracts';
import { findItem } from '../files/storage.service';
import { buildFileDag, type FileDag } from './ipfs.dag';
import { EmbeddedPinning } from './ipfs.embedded.store';
import { KuboPinning } from './ipfs.kubo';

/** The pin of a received file of a Secure Fetch link: one per file, whatever retries the payment makes. */
export const secureFetchPinId = (fetchId: string, itemId: string) => deterministicId('ipfs-pin', 'secure-fetch', fetchId, itemId);

export const runPinCommand = (ctx: AppContext, pinId: string, command: Omit<IpfsPinCommand, 'metadata'>, actor: CommandContext) =>
  handleCommand(ctx.commands, ipfsPinDecider, ipfsPinStreamName(pinId), { ...command, metadata: { now: ctx.now() } } as IpfsPinCommand, actor);

export const loadPin = async (ctx: AppContext, pinId: string): Promise<IpfsPinState> =>
  (await loadState(ctx.commands, ipfsPinDecider, ipfsPinStreamName(pinId))).state;

/** Plaintext bytes of leaf `index` of a file: the one stored chunk that holds them, read, verified and decrypted. */
export const readLeaf = async (content: FileContent, manifest: FileManifest, index: number): Promise<Buffer> => {
  const start = index * manifest.chunkPlainSize;
  const end = Math.min(manifest.size, start + manifest.chunkPlainSize) - 1;
  if (manifest.size === 0 && index === 0) return Buffer.alloc(0);
  if (end < start) throw new Error(`the file has no leaf ${index}`);
  const parts: Buffer[] = [];
  for await (const part of content.read(manifest, { start, end })) parts.push(Buffer.from(part as Uint8Array));
  return Buffer.concat(parts);
};

/**
 * A file's UnixFS DAG: its plaintext cut at the stored chunks' boundaries (one leaf per stored
 * chunk, CIDv1 raw leaves), so any IPFS client fetching the root gets the file itself and verifies
 * every block. The chunks are encrypted at rest: their own CIDs name ciphertext, never published.
 */
export const fileDag = async (content: FileContent, manifest: FileManifest): Promise<FileDag> =>
  buildFileDag(content.read(manifest) as AsyncIterable<Uint8Array>, manifest.chunkPlainSize);

const pinnable = (content: FileContent, manifest: FileManifest, dag: FileDag): PinnableDag => ({
  ...dag,
  leaf: (index) => readLeaf(content, manifest, index),
});

/** What the embedded service records to read a leaf back: the file version's manifest. */
interface LeafOrigin {
  readonly manifest: FileManifest;
}

/** The pinning of an app: the embedded service (always: it backs the gateway) and the one pins go to. */
export interface Pinning {
  readonly embedded: EmbeddedPinning;
  readonly service: PinningService;
  readonly content: FileContent;
}

export const createPinning = (ctx: AppContext, content: FileContent): Pinning => {
  const embedded = new EmbeddedPinning(ctx.pool, (origin, index) => readLeaf(content, (origin as LeafOrigin).manifest, index));
  const service = ctx.config.IPFS_KUBO_RPC_URL ? new KuboPinning(ctx.config.IPFS_KUBO_RPC_URL) : embedded;
  return { embedded, service, content };
};

/** The manifest of a received file, or null when it is gone (collected, deleted for ever). */
const manifestOf = async (ctx: AppContext, storageId: string, itemId: string): Promise<FileManifest | null> =>
  (await findItem(ctx, storageId, itemId))?.manifest ?? null;

/** The DAGs of a link's received files, by item id (built before its certificate is fixed). */
export const secureFetchDags = async (ctx: AppContext, pinning: Pinning, link: SecureFetchLink): Promise<Map<string, FileDag>> => {
  const dags = new Map<string, FileDag>();
  const submission = link.submission;
  if (!submission) return dags;
  for (const file of submission.files) {
    const manifest = await manifestOf(ctx, submission.storageId, file.itemId);
    if (manifest) dags.set(file.itemId, await fileDag(pinning.content, manifest));
  }
  return dags;
};

/**
 * Pins a queued pin (or one whose process stopped while pinning): the DAG is built from the file (or
 * taken as already built), handed to the service and the outcome recorded. A failure is recorded as
 * the pin's, for staff to retry; it never throws for the service's sake.
 */
export const processPin = async (ctx: AppContext, pinning: Pinning, pinId: string, actor: CommandContext, built?: FileDag): Promise<IpfsPinState> => {
  const pin = await loadPin(ctx, pinId);
  if (!isPin(pin) || (pin.status !== 'queued' && pin.status !== 'pinning')) return pin;
  let position: number;
  try {
    position = (await runPinCommand(ctx, pinId, { type: 'StartPin', data: {} }, actor)).position;
  } catch (error) {
    // a concurrent payment's call pinned it (or it failed) between the read and the start: its outcome stands
    if (error instanceof DomainError && error.code === IpfsErrors.notPinning.code) return loadPin(ctx, pinId);
    throw error;
  }
  try {
    const manifest = await manifestOf(ctx, pin.source.storageId, pin.source.itemId);
    if (!manifest) throw new Error('the file is no longer stored');
    const dag = built ?? (await fileDag(pinning.content, manifest));
    const origin: LeafOrigin = { manifest };
    const state = await pinning.service.pin({
      requestId: pinId,
      name: `secure-fetch ${pin.source.fetchId} ${pin.source.itemId}`,
      dag: pinnable(pinning.content, manifest, dag),
      origin,
    });
    if (state.status !== 'pinned') throw new Error(`the service answered ${state.status}${state.info ? `: ${state.info}` : ''}`);
    // a pin at another service is served by the gateway too: the embedded record names its blocks
    if (pinning.service !== pinning.embedded)
      await pinning.embedded.pin({ requestId: pinId, name: pinId, dag: pinnable(pinning.content, manifest, dag), origin });
    const blocks = new Set([...dag.nodes.map((n) => n.cid), ...dag.leaves]).size;
    const dagSize = dag.size + dag.nodes.reduce((n, b) => n + b.bytes.byteLength, 0);
    position = (await runPinCommand(ctx, pinId, { type: 'CompletePin', data: { cid: state.cid, blocks, dagSize } }, actor)).position;
  } catch (error) {
    ctx.log.warn({ err: error, pinId }, 'a pin failed');
    const reason = error instanceof Error ? error.message : String(error);
    position = await runPinCommand(ctx, pinId, { type: 'FailPin', data: { reason } }, actor).then(
      (r) => r.position,
      (err: unknown) => {
        ctx.log.error({ err, pinId }, 'could not record a failed pin');
        return 0;
      },
    );
  }
  // what the pin came to is in the read models before the answer
  await ctx.caughtUp(position);
  return loadPin(ctx, pinId);
};

/**
 * Pay and pin, the pinning part: each received file of a paid link gets its pin (queued once per
 * file), then pinned. Asking again (a retried payment) pins what is not pinned yet.
 */
export const pinSecureFetch = async (
  ctx: AppContext,
  pinning: Pinning,
  link: SecureFetchLink,
  actor: CommandContext,
  dags: ReadonlyMap<string, FileDag> = new Map(),
): Promise<void> => {
  const submission = link.submission;
  const txId = link.payment?.txId;
  if (!submission || !txId || link.collectedAt) return;
  for (const file of submission.files) {
    const pinId = secureFetchPinId(link.fetchId, file.itemId);
    await runPinCommand(
      ctx,
      pinId,
      {
        type: 'RequestPin',
        data: {
          pinId,
          ownerId: link.ownerId,
          source: { kind: 'secure-fetch', fetchId: link.fetchId, itemId: file.itemId, storageId: submission.storageId },
          size: file.size,
          txId,
          service: pinning.service.kind,
        },
      },
      actor,
    );
    await processPin(ctx, pinning, pinId, actor, dags.get(file.itemId));
  }
};

/** Staff: a failed pin queued again and pinned. */
export const retryPin = async (ctx: AppContext, pinning: Pinning, pinId: string, actor: CommandContext): Promise<IpfsPinState> => {
  await runPinCommand(ctx, pinId, { type: 'RetryPin', data: {} }, actor);
  return processPin(ctx, pinning, pinId, actor);
};

/** Staff: the pin removed with a reason (an event), then unpinned at its service and from the gateway. */
export const removePin = async (ctx: AppContext, pinning: Pinning, pinId: string, reason: string, actor: CommandContext): Promise<IpfsPinState> => {
  const before = await loadPin(ctx, pinId);
  if (!isPin(before)) throw new DomainError(IpfsErrors.pinNotFound);
  const result = await runPinCommand(ctx, pinId, { type: 'RemovePin', data: { reason } }, actor);
  if (before.cid) {
    await pinning.embedded.unpin(pinId, before.cid);
    if (pinning.service !== pinning.embedded) await pinning.service.unpin(pinId, before.cid);
  }
  await ctx.caughtUp(result.position);
  return loadPin(ctx, pinId);
};

/**
 * An account purge: its pins are removed (an event each, the reason saying why) and unpinned, and its
 * IPFS settings forgotten (the gateway it chose reads as erased).
 */
export const forgetIpfs = async (ctx: AppContext, pinning: Pinning, userId: string, actor: CommandContext & { now: Date }): Promise<void> => {
  for (const pinId of await livePinsOf(ctx.pool, userId)) {
    const pin = await loadPin(ctx, pinId);
    if (isPin(pin) && pin.status !== 'unpinned') {
      await removePin(ctx, pinning, pinId, "The owner's account was erased", actor).catch((err: unknown) =>
        // recorded as removed and no longer served here; a node that could not be reached keeps its copy
        ctx.log.error({ err, pinId }, 'could not unpin a purged account’s pin at its service'),
      );
    }
  }
  const command = { type: 'ForgetIpfsSettings', data: {}, metadata: { now: actor.now } } as IpfsSettingsCommand;
  await handleCommand(ctx.commands, ipfsSettingsDecider, ipfsSettingsStreamName(userId), command, actor);
};
