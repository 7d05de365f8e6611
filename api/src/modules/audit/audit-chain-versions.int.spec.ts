import { randomBytes, randomUUID } from 'node:crypto';
import { chainDigest, eventDigest, GENESIS_LINK } from '@axel/platform/audit/chain';
import { verifyExportLines } from '@axel/platform/audit/export-format';
import { parseSigningKey } from '@axel/platform/audit/keys';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestStore } from '../../../../test/db';
import { auditMigrations, exportRange, sealAll, verifyChain } from './audit.chain-store';
import { esEventColumns } from '@axel/platform';

type Store = Awaited<ReturnType<typeof createTestStore>>;
let s: Store;
const key = parseSigningKey(randomBytes(32).toString('hex'));
const sql = (text: string, values: unknown[] = []) => s.db.pool.query(text, values);

const append = (stream: string, type: string, data: string, metadata = '{"actorId":"a"}') =>
  sql(`select * from es_append($1, 'any', null, array[$2::uuid], array[$3], array[1], array[$4::jsonb], array[$5::jsonb])`, [
    stream,
    randomUUID(),
    type,
    data,
    metadata,
  ]);

/** Streams, types and values whose texts are easy to get wrong: quotes, escapes, line breaks, non-ASCII, numbers as written. */
const awkward = async (tag: string) => {
  await append(
    `user-"${tag}"\\\n\t\u0001\u001f\u007f é 😀 \u2028`,
    'Type "quoted"\nnext',
    '{"amount": 1.50, "big": 12345678901234567890, "e": 1e2, "neg": -0.0, "s": "a\\"b\\\\c\\n\\u0001 é 😀 \\u2028", "nested": {"zz": [1, 2.0, null, true], "a": {}}, "é": "", "": []}',
  );
  await append(`plain-${tag}`, 'Plain', '{}', '{"ip": {"$pii": "c2VhbGVk", "v": 1}, "at": "2026-11-23T10:00:00.000Z"}');
  await append(`list-${tag}`, 'List', '[1, "two", {"three": 3.000}]');
};

const exportText = async (options: { from?: number; to?: number } = {}, pageSize?: number) => {
  let text = '';
  for await (const chunk of exportRange(s.db.pool, key, options, pageSize ? { pageSize } : undefined)) text += chunk;
  return text;
};
const positions = async () => (await sql('select position from es_events order by position')).rows.map((r) => Number(r.position));

beforeAll(async () => {
  s = await createTestStore(auditMigrations);
  // a log sealed with chain version 1 (as before version 2 existed), then more sealed with version 2
  for (let i = 0; i < 4; i++) await awkward(`v1-${i}`);
  await sealAll(s.db.pool, key, 1);
  for (let i = 0; i < 4; i++) await awkward(`v2-${i}`);
  await sealAll(s.db.pool, key);
});
afterAll(async () => {
  await s?.close();
});

describe('chain version 2', () => {
  it('PostgreSQL computes the same digest of an event as the canonical text defined in platform/src/audit/chain.ts, whatever its stream, type and values', async () => {
    const { rows } = await sql(
      `select e.position, e.event_id, e.stream_name, e.stream_revision, e.event_type, e.schema_version, e.data::text as data_text, e.metadata::text as metadata_text, l.link,
              (select link from audit_links p where p.position < e.position order by p.position desc limit 1) as previous
       from es_events e join audit_links l using (position)
       where e.position > (select max(upto_position) from audit_checkpoints where chain = 1) order by e.position`,
    );
    expect(rows.length).toBe(12);
    for (const r of rows) {
      const digest = eventDigest({
        position: Number(r.position),
        id: r.event_id,
        stream: r.stream_name,
        revision: Number(r.stream_revision),
        type: r.event_type,
        schemaVersion: r.schema_version,
        dataText: r.data_text,
        metadataText: r.metadata_text,
      });
      expect(chainDigest(r.previous ?? GENESIS_LINK, digest).equals(r.link), `event at ${r.position}`).toBe(true);
    }
    // numbers keep the form they were stored in: the texts, not the parsed values, are hashed
    expect(rows.map((r) => r.data_text as string).join()).toContain('"amount": 1.50');
  });

  it('a log sealed with version 1 and then version 2 verifies, and an edit on either side is found at its position', async () => {
    const all = await positions();
    const { rows: runs } = await sql('select chain, count(*)::int as n from audit_checkpoints group by chain order by chain');
    expect(runs).toEqual([
      { chain: 1, n: 1 },
      { chain: 2, n: 1 },
    ]);
    expect(await verifyChain(s.db.pool, key)).toEqual({ ok: true, checkedUpTo: all.at(-1), firstMismatch: null, reason: null, events: all.length });
    expect(await verifyChain(s.db.pool, key, { pageSize: 2, parallel: 3 })).toMatchObject({ ok: true, events: all.length });
    for (const at of [all[3]!, all[17]!]) {
      // restored from its text: the parsed value would lose how its numbers were written
      const { rows } = await sql('select data::text as t from es_events where position = $1', [at]);
      await sql(`update es_events set data = data || '{"amount": 2}'::jsonb where position = $1`, [at]);
      expect(await verifyChain(s.db.pool, key, { pageSize: 2 })).toMatchObject({ ok: false, firstMismatch: at, reason: 'changed' });
      await sql('update es_events set data = $2::jsonb where position = $1', [at, rows[0].t]);
    }
    // a number rewritten in another form is an edit too in version 2, which hashes the stored text
    // (version 1 hashes the parsed values, where 1.50 and 1.5 are one number)
    const at = all[12]!;
    const { rows } = await sql('select data::text as t from es_events where position = $1', [at]);
    expect(rows[0].t).toContain('1.50');
    await sql('update es_events set data = replace(data::text, $2, $3)::jsonb where position = $1', [at, '1.50', '1.5']);
    expect(await verifyChain(s.db.pool, key)).toMatchObject({ ok: false, firstMismatch: at, reason: 'changed' });
    await sql('update es_events set data = $2::jsonb where position = $1', [at, rows[0].t]);
    expect((await verifyChain(s.db.pool, key)).ok).toBe(true);
  });

  it('deleted, inserted and swapped events of the version 2 range are named at their position', async () => {
    const all = await positions();
    const at = all[16]!;
    await sql('create table deleted_event as select * from es_events where position = $1', [at]);
    await sql('delete from es_events where position = $1', [at]);
    expect(await verifyChain(s.db.pool, key, { pageSize: 3 })).toMatchObject({ ok: false, firstMismatch: at, reason: 'deleted' });
    await sql('insert into es_events select * from deleted_event');
    await sql('drop table deleted_event');
    const inserted = all[18]! + 1;
    expect(all).not.toContain(inserted);
    await sql(
      `insert into es_events (${esEventColumns(undefined, { written: true })}) values ($1, $2, 0, $3, 'UserRoleChanged', 1, '{"role":"super_admin"}', '{}')`,
      [inserted, `user-${randomUUID()}`, randomUUID()],
    );
    expect(await verifyChain(s.db.pool, key, { pageSize: 3 })).toMatchObject({ ok: false, firstMismatch: inserted, reason: 'inserted' });
    await sql('delete from es_events where position = $1', [inserted]);
    const [a, b] = [all[14]!, all[15]!];
    const swap = async () => {
      await sql('update es_events set position = -1 where position = $1', [a]);
      await sql('update es_events set position = $1 where position = $2', [a, b]);
      await sql('update es_events set position = $1 where position = -1', [b]);
    };
    await swap();
    expect(await verifyChain(s.db.pool, key)).toMatchObject({ ok: false, firstMismatch: a, reason: 'changed' });
    await swap();
    expect((await verifyChain(s.db.pool, key)).ok).toBe(true);
  });

  it('a stored link rewritten alone, or cut short, is named at its position', async () => {
    const all = await positions();
    const at = all[19]!;
    const { rows } = await sql('select link from audit_links where position = $1', [at]);
    for (const link of [randomBytes(32), randomBytes(5)]) {
      await sql('update audit_links set link = $2 where position = $1', [at, link]);
      expect(await verifyChain(s.db.pool, key)).toMatchObject({ ok: false, firstMismatch: at, reason: 'changed' });
    }
    await sql('update audit_links set link = $2 where position = $1', [at, rows[0].link]);
    expect((await verifyChain(s.db.pool, key)).ok).toBe(true);
  });

  it('edits in several ranges checked at once: the smallest position is named, with the same answer whatever the ranges', async () => {
    const all = await positions();
    const [early, late] = [all[14]!, all[21]!];
    const { rows: linkRows } = await sql('select link from audit_links where position = $1', [late]);
    await sql('create table removed_event as select * from es_events where position = $1', [early]);
    // the later edit sits in a range that is checked beside (and may finish before) the earlier one
    await sql('update audit_links set link = $2 where position = $1', [late, randomBytes(32)]);
    await sql('delete from es_events where position = $1', [early]);
    const answers = [];
    for (const options of [{}, { pageSize: 1, parallel: 4 }, { pageSize: 2, parallel: 4 }, { pageSize: 5, parallel: 2 }, { pageSize: 2, parallel: 1 }]) {
      answers.push(await verifyChain(s.db.pool, key, options));
    }
    // events before it: every event below the deleted one
    const below = all.filter((p) => p < early).length;
    for (const answer of answers) expect(answer).toEqual({ ok: false, checkedUpTo: all[11], firstMismatch: early, reason: 'deleted', events: below });
    await sql('insert into es_events select * from removed_event');
    await sql('drop table removed_event');
    expect(await verifyChain(s.db.pool, key, { pageSize: 2, parallel: 4 })).toEqual({
      ok: false,
      checkedUpTo: all[11],
      firstMismatch: late,
      reason: 'changed',
      events: all.filter((p) => p < late).length,
    });
    await sql('update audit_links set link = $2 where position = $1', [late, linkRows[0].link]);
    expect(await verifyChain(s.db.pool, key, { pageSize: 2, parallel: 4 })).toMatchObject({ ok: true, events: all.length });
  });

  it('a checkpoint whose version is rewritten no longer holds', async () => {
    await sql('update audit_checkpoints set chain = 1 where chain = 2');
    expect((await verifyChain(s.db.pool, key)).ok).toBe(false);
    await sql('update audit_checkpoints set chain = 2 where upto_position = (select max(upto_position) from audit_checkpoints)');
    expect((await verifyChain(s.db.pool, key)).ok).toBe(true);
  });
});

describe('the export across both versions', () => {
  it('verifies offline, shows the values and carries the texts hashed; a shown value or a text edited is named at its line', async () => {
    const text = await exportText();
    expect(await exportText({}, 3)).toBe(text);
    const lines = text.trimEnd().split('\n');
    expect(JSON.parse(lines[0]!)).toMatchObject({ kind: 'axel-audit-export', version: 2 });
    expect(await verifyExportLines(lines, key)).toMatchObject({ ok: true, events: 24, checkpoints: 2, firstBadLine: null });
    const parsed = lines.map((l) => JSON.parse(l));
    expect(parsed.filter((l) => l.kind === 'checkpoint').map((l) => l.chain)).toEqual([undefined, 2]);
    const v2 = parsed.findIndex((l) => l.kind === 'event' && l.chain === 2 && l.data.amount !== undefined);
    expect(parsed[v2].data.amount).toBe(1.5);
    expect(parsed[v2].dataText).toContain('"amount": 1.50');
    expect(parsed[v2].stream).toContain('\n');

    const edited = (change: (o: Record<string, unknown>) => void) => {
      const copy = [...lines];
      const o = JSON.parse(copy[v2]!);
      change(o);
      copy[v2] = JSON.stringify(o);
      return copy;
    };
    for (const change of [
      (o: Record<string, unknown>) => void ((o.data as Record<string, unknown>).amount = 2),
      (o: Record<string, unknown>) => void (o.dataText = (o.dataText as string).replace('1.50', '1.5')),
      (o: Record<string, unknown>) => void (o.metadataText = '{"actorId": "b"}'),
      (o: Record<string, unknown>) => void (o.stream = 'another'),
      (o: Record<string, unknown>) => void delete o.dataText,
    ]) {
      expect((await verifyExportLines(edited(change), key)).firstBadLine?.line).toBe(v2 + 1);
    }
    // a range starting inside the version 2 part verifies from the link before it
    const all = await positions();
    const part = (await exportText({ from: all[15]!, to: all[20]! })).trimEnd().split('\n');
    expect(await verifyExportLines(part, key)).toMatchObject({ ok: true, events: 9 });
  });
});
