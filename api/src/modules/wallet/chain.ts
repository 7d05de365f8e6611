import { isIP } from 'node:net';
import type { Migration, Pool } from '@axel/platform';
import { DevelopmentChain, type ChainPort, type SendJournal } from '@axel/platform/chain/index';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../../config';
import type { AppContext } from '../../context';
import { isLoopbackAddress, isLoopbackHost } from '../../http/loopback';
import { TREASURY_LABEL } from './wallet.service';

export const chainMigrations: Migration[] = [
  {
    id: 'wallet-001-chain-send-journal',
    sql: `create table if not exists chain_send_journal (
      idempotency_key text primary key,
      txid text not null,
      hex text not null,
      created_at timestamptz not null default now()
    )`,
  },
];

/** Signed sends kept before broadcast, first writer wins: two processes retrying one key pay once. */
export const postgresSendJournal = (pool: Pool): SendJournal => ({
  async claim(key, record) {
    await pool.query('insert into chain_send_journal (idempotency_key, txid, hex) values ($1, $2, $3) on conflict do nothing', [key, record.txid, record.hex]);
    const { rows } = await pool.query<{ txid: string; hex: string }>('select txid, hex from chain_send_journal where idempotency_key = $1', [key]);
    return rows[0]!;
  },
  async find(key) {
    const { rows } = await pool.query<{ txid: string; hex: string }>('select txid, hex from chain_send_journal where idempotency_key = $1', [key]);
    return rows[0] ?? null;
  },
});

/** The development chain only without AXEL_RPC_URL; a real node otherwise. */
export const buildChain = async (ctx: AppContext): Promise<ChainPort> => {
  if (ctx.config.AXEL_RPC_URL) {
    const { JsonRpcChain } = await import('@axel/platform/chain/json-rpc');
    return new JsonRpcChain({ url: ctx.config.AXEL_RPC_URL, journal: postgresSendJournal(ctx.pool) });
  }
  return new DevelopmentChain({
    store: ctx.store,
    registry: ctx.registry,
    now: ctx.now,
    genesis: { label: TREASURY_LABEL, amount: ctx.config.AXEL_DEV_TREASURY_GENESIS },
  });
};

/**
 * The faucet follows the development mailbox's rule: it exists on the development chain only,
 * `auto` serves it on a loopback HOST, `on` on any HOST, `off` never; and it answers clients on
 * this machine only (every address a proxy names included).
 */
export const faucetMode = (config: Pick<Config, 'AXEL_RPC_URL' | 'DEV_CHAIN_FAUCET' | 'HOST'>): 'off' | 'loopback' | 'exposed' => {
  if (config.AXEL_RPC_URL || config.DEV_CHAIN_FAUCET === 'off') return 'off';
  if (isLoopbackHost(config.HOST)) return 'loopback';
  return config.DEV_CHAIN_FAUCET === 'on' ? 'exposed' : 'off';
};

export const isLoopbackClient = (request: FastifyRequest): boolean => {
  const addresses = [request.socket.remoteAddress ?? ''];
  for (const value of [request.headers['x-forwarded-for']].flat()) if (value) addresses.push(...value.split(','));
  for (const value of [request.headers['x-real-ip']].flat()) if (value) addresses.push(value);
  const forwarded = request.headers.forwarded;
  if (forwarded) for (const m of forwarded.matchAll(/for="?([^";,]+)"?/gi)) addresses.push(m[1]!.replace(/:\d+$/, ''));
  return addresses.map((a) => a.trim()).every((a) => isLoopbackAddress(a) || (isIP(a) === 0 && a === 'localhost'));
};
