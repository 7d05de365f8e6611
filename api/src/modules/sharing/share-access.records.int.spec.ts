import { ERASED, shareAccessDecider, shareAccessStreamName, shareStreamName } from '@axel/domain';
import { handleCommand } from '@axel/platform';
import { notificationsProjection, rebuildProjection } from '@axel/projections';
import { EmbeddedProcessRuntime } from '@axel/workflows';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../testing/harness';
import { shareAccessProjection } from './share-access.projection';
import { ownerNameOf } from './share-access.service';
import { SHARE_PASSWORD, shareAccessHelpers } from './share-access.testing';

/* What share visits leave behind: the access read model, concurrent opens, and forgetting. */

const t = useTestApp();
const { caughtUp, owner, visitor, password, bytesOf } = shareAccessHelpers(t);

describe('the access read model', () => {
  it('is rebuilt from the access events to the same rows, and forgets a deleted share', async () => {
    const o = await owner();
    const doc = await o.file('kept.txt', Buffer.from('kept'));
    const s = await o.share({ itemIds: [doc] });
    const v = visitor();
    expect((await v.call(`/api/share-links/${s.shareLinkId}`)).status).toBe(200);
    const url = await v.call(`/api/share-links/${s.shareLinkId}/entries/${doc}?q=download-url`);
    expect((await bytesOf(url.body.url)).body.toString()).toBe('kept');
    await caughtUp();
    const rows = async () => {
      const out: unknown[] = [];
      for (const table of ['share_access_log', 'share_access_summary', 'share_access_recipients']) {
        out.push((await t().app.ctx.pool.query(`select * from ${table} order by 1, 2`)).rows);
      }
      return out;
    };
    const before = await rows();
    expect(JSON.stringify(before)).toContain(s.id);
    const { pool, store, registry } = t().app.ctx;
    await rebuildProjection({ pool, store, registry, projection: shareAccessProjection });
    expect(await rows()).toEqual(before);

    expect((await o.http.delete(`/api/shares/${s.id}/`)).status).toBe(204);
    await caughtUp();
    expect(JSON.stringify(await rows())).not.toContain(s.id);
    expect((await v.call(`/api/share-links/${s.shareLinkId}`)).body.code).toBe('SHARE_NOT_FOUND');
  });
});

describe('opens at once', () => {
  it("count every visit and tell the owner of a recipient's first open once, also when another process wrote in between", async () => {
    const o = await owner();
    const doc = await o.file('busy.txt', Buffer.from('busy'));
    const s = await o.share({ itemIds: [doc], recipients: ['ann@example.com', 'bob@example.com'], message: 'Busy', password: SHARE_PASSWORD });
    const link = `/api/share-links/${s.shareLinkId}`;
    const asAnn = { ...password(SHARE_PASSWORD), 'x-share-email': 'ann@example.com' };
    const answers = await Promise.all(Array.from({ length: 10 }, () => visitor().call(link, asAnn)));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));

    // another API process records Bob's first open on the same stream, unseen by this one's cached state
    await handleCommand(
      t().app.ctx.commands,
      shareAccessDecider,
      shareAccessStreamName(s.id),
      {
        type: 'RecordShareOpen',
        data: { shareId: s.id, ownerId: o.id, kind: 'private', visitId: 'elsewhere', recipientEmail: 'bob@example.com', access: { ok: true } },
        metadata: { now: t().clock.now() },
      },
      { actorId: 'visitor-elsewhere', actorKind: 'anonymous' },
    );
    expect((await visitor().call(link, { ...password(SHARE_PASSWORD), 'x-share-email': 'bob@example.com' })).status).toBe(200);

    await caughtUp();
    expect((await o.http.get(`/api/shares/${s.id}/`)).body.openedCount).toBe(12);
    const notices = (await o.http.get(`/api/users/${o.id}/notifications/`)).body.data.filter((n: { type: string }) => n.type === 'share_opened');
    expect(notices.map((n: { body: string }) => n.body.split(' ')[0]).sort()).toEqual(['ann@example.com', 'bob@example.com']);
    const { events } = await t().app.ctx.store.readStream(shareAccessStreamName(s.id));
    expect(events.map((e) => (e.data as { firstOpen: boolean }).firstOpen).filter(Boolean)).toHaveLength(2);
  });
});

describe('a deleted share', () => {
  it("forgets its recipients' e-mails in its own events and its access events; another share's stay readable", async () => {
    const o = await owner();
    const doc = await o.file('gone.txt', Buffer.from('gone'));
    const gone = await o.share({ itemIds: [doc], recipients: ['ann@example.com'], message: 'Soon gone', password: SHARE_PASSWORD });
    const kept = await o.share({ itemIds: [doc], recipients: ['bob@example.com'], message: 'Kept', password: SHARE_PASSWORD });
    const ann = visitor('AnnBrowser/2.0');
    expect((await ann.call(`/api/share-links/${gone.shareLinkId}`, { ...password(SHARE_PASSWORD), 'x-share-email': 'ann@example.com' })).status).toBe(200);
    const bob = visitor('BobBrowser/2.0');
    expect((await bob.call(`/api/share-links/${kept.shareLinkId}`, { ...password(SHARE_PASSWORD), 'x-share-email': 'bob@example.com' })).status).toBe(200);
    const { store } = t().app.ctx;
    expect(JSON.stringify((await store.readStream(shareStreamName(gone.id))).events)).toContain('ann@example.com');
    expect(JSON.stringify((await store.readStream(shareAccessStreamName(gone.id))).events)).toContain('ann@example.com');
    await caughtUp();
    const notices = async () =>
      ((await o.http.get(`/api/users/${o.id}/notifications/`)).body.data as { type: string; body: string }[])
        .filter((n) => n.type === 'share_opened')
        .map((n) => n.body)
        .sort();
    expect(await notices()).toEqual([
      'ann@example.com opened your private share for the first time.',
      'bob@example.com opened your private share for the first time.',
    ]);

    expect((await o.http.delete(`/api/shares/${gone.id}/`)).status).toBe(204);
    await caughtUp();
    // the owner's notices keep that the deleted share was opened, not by whom
    expect(await notices()).toEqual([
      'The recipient opened your private share for the first time.',
      'bob@example.com opened your private share for the first time.',
    ]);
    const { pool, registry } = t().app.ctx;
    await rebuildProjection({ pool, store, registry, projection: notificationsProjection });
    expect(await notices()).toEqual([
      'The recipient opened your private share for the first time.',
      'bob@example.com opened your private share for the first time.',
    ]);
    const share = (await store.readStream(shareStreamName(gone.id))).events;
    expect(share.map((e) => e.type)).toEqual(['ShareCreated', 'ShareDeleted']);
    expect(JSON.stringify(share)).not.toContain('ann@example.com');
    expect(share[0]).toMatchObject({ data: { recipients: [], message: ERASED } });
    const access = (await store.readStream(shareAccessStreamName(gone.id))).events;
    expect(JSON.stringify(access)).not.toContain('ann@example.com');
    expect(access[0]).toMatchObject({ data: { recipientEmail: ERASED }, metadata: { ip: ERASED, userAgent: ERASED } });

    expect((await store.readStream(shareStreamName(kept.id))).events[0]).toMatchObject({ data: { recipients: ['bob@example.com'], message: 'Kept' } });
    expect((await store.readStream(shareAccessStreamName(kept.id))).events[0]).toMatchObject({
      data: { recipientEmail: 'bob@example.com' },
      metadata: { userAgent: 'BobBrowser/2.0' },
    });
  });
});

describe("a purged owner's shares", () => {
  it("forget who opened them: recipients' e-mails and anonymous visitors' addresses read as erased, the access rows are gone", async () => {
    const o = await owner();
    const doc = await o.file('secret.txt', Buffer.from('secret'));
    const s = await o.share({ itemIds: [doc], recipients: ['ann@example.com'], message: 'Only you', password: SHARE_PASSWORD });
    const ann = visitor('AnnBrowser/1.0');
    expect((await ann.call(`/api/share-links/${s.shareLinkId}`, { ...password(SHARE_PASSWORD), 'x-share-email': 'ann@example.com' })).status).toBe(200);
    const { events: before } = await t().app.ctx.store.readStream(shareAccessStreamName(s.id));
    expect(before[0]).toMatchObject({ data: { recipientEmail: 'ann@example.com' }, metadata: { ip: '127.0.0.1', userAgent: 'AnnBrowser/1.0' } });
    expect((await o.http.put(`/api/users/${o.id}/profile`, { firstName: 'Olga' })).status).toBe(200);
    await caughtUp();
    expect(await ownerNameOf(t().app.ctx, o.id)).toBe('Olga');

    expect((await o.http.delete(`/api/users/${o.id}/`, { confirmation: 'YES', password: 'Secret-pass-1' })).status).toBe(204);
    t().clock.advance(31 * 86_400_000);
    const runtime = t().app.ctx.processes();
    if (!(runtime instanceof EmbeddedProcessRuntime)) throw new Error('expected the embedded runtime');
    for (let round = 0; round < 5; round++) {
      await runtime.fireDueTimers();
      await runtime.whenIdle({ timeoutMs: 10_000 }).catch(() => undefined);
    }
    await caughtUp();
    const { events: after } = await t().app.ctx.store.readStream(shareAccessStreamName(s.id));
    expect(after.map((e) => e.type)).toEqual(['ShareOpened', 'ShareAccessForgotten']);
    expect(await ownerNameOf(t().app.ctx, o.id)).toBeNull();
    expect(after[0]).toMatchObject({ data: { recipientEmail: ERASED }, metadata: { ip: ERASED, userAgent: ERASED } });
    const { rows } = await t().app.ctx.pool.query(
      'select 1 from share_access_log where share_id = $1 union all select 1 from share_access_recipients where share_id = $1',
      [s.id],
    );
    expect(rows).toEqual([]);
  });
});
