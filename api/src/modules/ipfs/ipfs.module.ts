import { ipfsEventDefinitions, type SecureFetchLink } from '@axel/domain';
import type { CommandContext } from '@axel/platform';
import { ipfsPinsProjection } from '@axel/projections/ipfs/ipfs-pins.projection';
import type { AppContext } from '../../context';
import type { Module } from '../../module';
import type { StorageBytesOf } from '../files/storage.bytes';
import type { FileDag } from './ipfs.dag';
import { ipfsMigrations } from './ipfs.migrations';
import { ipfsRoutes } from './ipfs.routes';
import { createPinning, forgetIpfs, pinSecureFetch, secureFetchDags, type Pinning } from './ipfs.service';

/** What pay and pin asks of IPFS pinning: the files' DAGs before the certificate is fixed, then the pins. */
export interface PaidPinning {
  /** The root CID of each received file, by item id, and the DAGs behind them (handed back to `pinPaid`). */
  dagsOf(ctx: AppContext, link: SecureFetchLink): Promise<ReadonlyMap<string, FileDag>>;
  /** The paid link's files pinned (each once; what failed is recorded for staff to retry). */
  pinPaid(ctx: AppContext, link: SecureFetchLink, actor: CommandContext, dags?: ReadonlyMap<string, FileDag>): Promise<void>;
}

export interface IpfsModule extends Module, PaidPinning {}

/**
 * IPFS pinning of paid files: UnixFS DAGs over the stored chunks (no second copy of the bytes), a
 * pinning port with the embedded service (the product's trustless gateway at `/ipfs/<cid>`) and
 * Kubo's RPC, the pins' events and read model, the console's section, the preferred gateway.
 */
export const createIpfsModule = (deps: { readonly bytes: StorageBytesOf }): IpfsModule => {
  const pinnings = new WeakMap<AppContext, Pinning>();
  const pinningOf = (ctx: AppContext) => {
    let pinning = pinnings.get(ctx);
    if (!pinning) pinnings.set(ctx, (pinning = createPinning(ctx, deps.bytes(ctx).content)));
    return pinning;
  };
  return {
    name: 'ipfs',
    events: ipfsEventDefinitions,
    projections: [ipfsPinsProjection],
    migrations: ipfsMigrations,
    routes: (ctx) => ipfsRoutes(ctx, () => pinningOf(ctx)),
    // a purged account's pins are unpinned and its chosen gateway forgotten
    forget: (ctx, userId, actor) => forgetIpfs(ctx, pinningOf(ctx), userId, actor),
    dagsOf: (ctx, link) => secureFetchDags(ctx, pinningOf(ctx), link),
    pinPaid: (ctx, link, actor, dags) => pinSecureFetch(ctx, pinningOf(ctx), link, actor, dags),
  };
};
