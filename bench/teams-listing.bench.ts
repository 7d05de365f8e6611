/**
 * Teams: a team folder of 10,000 items at depth 10, listed in pages of 500 through HTTP by a member
 * whose access comes through grants (50 groups, grants on every level of the path, the member in 5
 * of the groups), against the same listing by the folder's owner with no grants to weigh: p99
 * against the 100 ms target, and the member's throughput as a ratio of the owner's (target 0.8).
 *
 * The items and the team are written straight into the read models the listing reads (storage
 * items, teams, members, groups, grants); the folders of the path are made through HTTP.
 *
 *   BENCH_LIST_ITEMS=10000   items in the folder
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from '../platform/src/postgres/embedded';
import { databaseUrlWithName, dropDatabase, ensureDatabase } from '../platform/src/postgres/pool';
import { loadAverage, percentile } from './files-listing.bench';
import { fmt, type BenchSection } from './harness';
import { benchSignIn, spawnProduct, stopProduct, untilHealthy } from './product';

const LEVELS = ['view', 'download', 'edit', 'full'] as const;

const teamListingSection: BenchSection = {
  name: 'teams-listing',
  description: 'a team folder of 10,000 items at depth 10 under 50 groups of grants, listed by a member and by its owner',
  async run(ctx) {
    const total = Number(process.env.BENCH_LIST_ITEMS ?? 10_000);
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'axel-bench-teams-'));
    const database = `bench_teams_${randomBytes(4).toString('hex')}`;
    await ensureDatabase(ctx.serverUrl, database);
    const url = databaseUrlWithName(ctx.serverUrl, database);
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    let child: ChildProcess | undefined;
    const db = new pg.Pool({ connectionString: url, max: 2 });
    const json = { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' };
    try {
      child = spawnProduct({ databaseUrl: url, dataDir, port });
      await untilHealthy(base);
      const owner = await benchSignIn(base);
      await fetch(`${base}/api/users/${owner.userId}/personal-folders/`, { headers: { cookie: owner.cookie } });

      // the member: an account staff create, signed in on its own
      const memberEmail = `member.${randomBytes(4).toString('hex')}@example.com`;
      const password = 'Member-pass-123';
      const created = await fetch(`${base}/api/admin/users/`, {
        method: 'POST',
        headers: { ...json, cookie: owner.cookie },
        body: JSON.stringify({ email: memberEmail, password, passwordConfirmation: password, role: 'user' }),
      });
      const memberId = ((await created.json()) as { id: string }).id;
      const signIn = await fetch(`${base}/api/sessions/`, { method: 'POST', headers: json, body: JSON.stringify({ email: memberEmail, password }) });
      const memberCookie = signIn.headers
        .getSetCookie()
        .map((c) => c.split(';')[0])
        .join('; ');

      // ten folders deep, the big folder at the bottom
      const path10: string[] = [];
      for (let depth = 0; depth < 10; depth++) {
        const parent = path10.at(-1);
        const res = await fetch(
          parent
            ? `${base}/api/users/${owner.userId}/storages/${owner.storageId}/folders/${parent}/items/`
            : `${base}/api/users/${owner.userId}/storages/${owner.storageId}/items/`,
          { method: 'POST', headers: { ...json, cookie: owner.cookie }, body: JSON.stringify({ label: 'folder', name: `level ${depth + 1}` }) },
        );
        path10.push(((await res.json()) as { id: string }).id);
      }
      const folderId = path10.at(-1)!;
      const now = new Date();
      for (let at = 0; at < total; at += 1000) {
        const n = Math.min(1000, total - at);
        const ids = Array.from({ length: n }, (_, i) => `bench-team-item-${at + i}`);
        const names = ids.map((_, i) => `item ${String(((at + i) * 7919) % total).padStart(5, '0')}${(at + i) % 10 === 0 ? '' : '.bin'}`);
        await db.query(
          `insert into storage_items (id, storage_id, folder, label, name, size, hash, mime, encrypted, created_at, modified_at)
           select id, $2, $3, case when name like '%.bin' then 'file' else 'folder' end, name,
                  case when name like '%.bin' then 1048576 else 0 end, case when name like '%.bin' then $4 end,
                  case when name like '%.bin' then 'application/octet-stream' end, true, $5, $5
             from unnest($1::text[], $6::text[]) as t(id, name)`,
          [ids, owner.storageId, folderId, 'a'.repeat(64), now, names],
        );
      }
      // the team: the owner, the member in 5 of 50 groups, and grants to every group on every level
      const teamId = owner.userId;
      await db.query(`insert into teams (id, owner_id, plan_kind, status, created_at, modified_at) values ($1, $1, 'group', 'open', $2, $2)`, [teamId, now]);
      await db.query(
        `insert into team_members (team_id, member_id, user_id, role, status, quota_bytes, created_at, modified_at)
         values ($1, $1, $1, 'admin', 'joined', 0, $3, $3), ($1, 'bench-member', $2, 'member', 'joined', 0, $3, $3)`,
        [teamId, memberId, now],
      );
      const groups = Array.from({ length: 50 }, (_, i) => `bench-group-${i}`);
      for (const g of groups) await db.query('insert into team_groups (team_id, group_id, name, created_at) values ($1, $2, $3, $4)', [teamId, g, g, now]);
      for (const g of groups.slice(0, 5))
        await db.query(`insert into team_group_members (team_id, group_id, member_id) values ($1, $2, 'bench-member')`, [teamId, g]);
      for (const [depth, itemId] of path10.entries()) {
        for (const [i, g] of groups.entries()) {
          // the member's groups reach `view` only at the top; every other grant is another group's
          const level = i < 5 ? (depth === 0 ? 'view' : 'none') : LEVELS[(i + depth) % LEVELS.length]!;
          if (level === 'none') continue;
          await db.query(
            `insert into team_grants (team_id, storage_id, item_id, principal_kind, principal_id, level, level_rank) values ($1, $2, $3, 'group', $4, $5, $6)`,
            [teamId, owner.storageId, itemId, g, level, ['none', 'view', 'download', 'edit', 'full'].indexOf(level)],
          );
        }
      }
      await db.query('analyze storage_items');
      await db.query('analyze team_grants');

      const pages = Math.ceil(total / 500);
      const list = async (who: { userId: string; cookie: string }, page: number) => {
        const t = performance.now();
        const res = await fetch(`${base}/api/users/${who.userId}/storages/${owner.storageId}/folders/${folderId}/items/?page=${page}`, {
          headers: { cookie: who.cookie },
        });
        const body = (await res.json()) as { totalCount: number };
        if (res.status !== 200 || body.totalCount !== total) throw new Error(`listing answered ${res.status} with ${body.totalCount} items`);
        return performance.now() - t;
      };
      const member = { userId: memberId, cookie: memberCookie };
      const measure = async (who: { userId: string; cookie: string }) => {
        for (let p = 1; p <= pages; p++) await list(who, p); // warm-up
        const times: number[] = [];
        const until = performance.now() + ctx.seconds * 1000;
        for (let p = 1; performance.now() < until || times.length < pages; p = (p % pages) + 1) times.push(await list(who, p));
        return times;
      };
      // owner and member in turn, twice, so a drift of the machine weighs on both
      const ownerTimes: number[] = [];
      const memberTimes: number[] = [];
      for (let round = 0; round < 2; round++) {
        ownerTimes.push(...(await measure(owner)));
        memberTimes.push(...(await measure(member)));
      }
      const rate = (xs: number[]) => (1000 * xs.length) / xs.reduce((a, b) => a + b, 0);
      const rows = [
        ['owner, no grants to weigh', ownerTimes],
        ['member, through grants at depth 10', memberTimes],
      ].map(([who, times]) => ({
        who: who as string,
        requests: fmt((times as number[]).length),
        'pages/s': fmt(rate(times as number[]), 1),
        'p50 ms': fmt(percentile(times as number[], 50), 1),
        'p99 ms': fmt(percentile(times as number[], 99), 1),
        verdict: percentile(times as number[], 99) < 100 ? 'met' : 'NOT met',
      }));
      const ratio = rate(memberTimes) / rate(ownerTimes);
      ctx.table(
        `Teams: a folder of ${fmt(total)} items at depth 10, 50 groups of grants, listed in pages of 500 through HTTP`,
        rows,
        `Member against owner: ${fmt(ratio, 2)} of the owner's pages per second (target at least 0.8; p99 target under 100 ms). Load average ${loadAverage()} at the end.`,
      );
    } finally {
      await db.end();
      await stopProduct(child);
      await dropDatabase(ctx.serverUrl, database).catch(() => undefined);
      rmSync(dataDir, { recursive: true, force: true });
    }
  },
};

export const teamsListingSections: BenchSection[] = [teamListingSection];
