import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { ApiError } from '../../api/errors';
import { shareAccessMachine, type ListInput, type LocateInput, type SummaryInput } from './share-access.machine';
import { folderIdFromRest, locateEntry, MAX_SHARE_DEPTH, shareBasePath, shareLocationPath, type LocatedEntry } from './share-location';
import type { Page } from './sharing.api';
import type { ShareEntry, ShareSummary } from './sharing.types';

const LINK = 'AbCdEfGhIjKlMnOpQrSt_-';

/** A shared tree as the share-link entry call answers it: Album (shared) > 2024 > Summer > beach.jpg. */
const tree: Record<string, ShareEntry> = {
  album: { id: 'album', name: 'Album', label: 'folder', size: 0, parentId: null },
  y2024: { id: 'y2024', name: '2024', label: 'folder', size: 0, parentId: 'album' },
  summer: { id: 'summer', name: 'Summer', label: 'folder', size: 0, parentId: 'y2024' },
  beach: { id: 'beach', name: 'beach.jpg', label: 'file', size: 9, parentId: 'summer' },
};
const children = (folderId: string | null) => Object.values(tree).filter((e) => (e.parentId ?? null) === folderId);
const entryOf = async (id: string) => {
  const e = tree[id];
  if (!e) throw new ApiError('FOLDER_NOT_FOUND', 'Folder not found', null, 404);
  return e;
};

describe('the visitor’s place in the address', () => {
  it('builds the share’s address with the folder and reads it back from the route’s rest-of-path', () => {
    expect(shareBasePath({ kind: 'public', linkId: LINK })).toBe(`/shares/${LINK}`);
    expect(shareBasePath({ kind: 'private', linkId: LINK })).toBe(`/private-share/${LINK}`);
    expect(shareBasePath({ kind: 'private', linkId: LINK, sharedWithMe: true })).toBe(`/shares_shared/${LINK}`);
    expect(shareLocationPath({ kind: 'public', linkId: LINK }, null)).toBe(`/shares/${LINK}`);
    expect(shareLocationPath({ kind: 'public', linkId: LINK }, 'a b/c')).toBe(`/shares/${LINK}/entries/a%20b%2Fc`);
    expect(folderIdFromRest('entries/a%20b%2Fc')).toBe('a b/c');
    expect(folderIdFromRest('entries/f1/')).toBe('f1');
    expect(folderIdFromRest('/entries/f1')).toBe('f1');
    for (const rest of [undefined, null, '', 'entries', 'entries/', 'other/f1', 'entries/f1/more', 'entries/%E0%A4%A'])
      expect(folderIdFromRest(rest)).toBeNull();
  });

  it('rebuilds the breadcrumbs of a deep folder, and a file’s folder with the file in focus', async () => {
    expect(await locateEntry('summer', entryOf)).toEqual({ path: [tree.album, tree.y2024, tree.summer], focusId: null });
    expect(await locateEntry('beach', entryOf)).toEqual({ path: [tree.album, tree.y2024, tree.summer], focusId: 'beach' });
    expect(await locateEntry('album', entryOf)).toEqual({ path: [tree.album], focusId: null });
    await expect(locateEntry('gone', entryOf)).rejects.toMatchObject({ code: 'FOLDER_NOT_FOUND' });
  });

  it('a shared Secure Fetch folder opens as a folder, a file received in it is focused as a file', async () => {
    const received: Record<string, ShareEntry> = {
      sf: { id: 'sf', name: 'Secure Fetch 2030-05-06 abcdef', label: 'sfFolder', size: 0, parentId: null },
      scan: { id: 'scan', name: 'scan.pdf', label: 'sfFile', size: 9, parentId: 'sf' },
    };
    const of = async (id: string) => received[id]!;
    expect(await locateEntry('sf', of)).toEqual({ path: [received.sf], focusId: null });
    expect(await locateEntry('scan', of)).toEqual({ path: [received.sf], focusId: 'scan' });
  });

  it('stops on a parent cycle and at the depth cap instead of asking forever', async () => {
    let asked = 0;
    const cyclic = await locateEntry('a', async (id) => {
      asked++;
      return { id, name: id, label: 'folder', size: 0, parentId: id === 'a' ? 'b' : 'a' };
    });
    expect(cyclic.path.map((p) => p.id)).toEqual(['b', 'a']);
    asked = 0;
    await locateEntry('n0', async (id) => {
      asked++;
      return { id, name: id, label: 'folder', size: 0, parentId: `n${Number(id.slice(1)) + 1}` };
    });
    expect(asked).toBe(MAX_SHARE_DEPTH);
  });
});

describe('share access machine and the address', () => {
  const summary: ShareSummary = { title: 'Holiday', kind: 'public', requireLogin: false, hasPassword: false, downloadable: true, expiresAt: null };
  const start = (folderId: string | null) => {
    const lists: (string | null)[] = [];
    const locates: string[] = [];
    const actor = createActor(
      shareAccessMachine.provide({
        actors: {
          loadSummary: fromPromise<ShareSummary, SummaryInput>(async () => summary),
          listEntries: fromPromise<Page<ShareEntry>, ListInput>(async ({ input }) => {
            lists.push(input.folderId);
            const data = children(input.folderId);
            return { data, totalCount: data.length };
          }),
          locateEntry: fromPromise<LocatedEntry, LocateInput>(({ input }) => {
            locates.push(input.entryId);
            return locateEntry(input.entryId, entryOf);
          }),
        },
      }),
      { input: { linkId: LINK, routeKind: 'public', viewerEmail: null, folderId } },
    ).start();
    const settled = () => waitFor(actor, (s) => s.matches('browsing') || s.matches('refused') || s.matches('credentials'));
    const ids = () => actor.getSnapshot().context.path.map((p) => p.id);
    return { actor, lists, locates, settled, ids };
  };

  it('opens the folder the address names, with its breadcrumbs, once let in', async () => {
    const m = start('summer');
    await m.settled();
    expect(m.ids()).toEqual(['album', 'y2024', 'summer']);
    expect(m.actor.getSnapshot().context.entries).toEqual([tree.beach]);
    expect(m.lists).toEqual(['summer']);
  });

  it('a deep link to a password share asks the password first, then opens the folder it names', async () => {
    const located: LocateInput[] = [];
    const actor = createActor(
      shareAccessMachine.provide({
        actors: {
          loadSummary: fromPromise<ShareSummary, SummaryInput>(async ({ input }) => {
            if (input.credentials.password !== 'right-one')
              throw new ApiError(
                'SHARE_PROTECTED',
                'This share is protected by a password',
                { kind: 'public', hasPassword: true, requireLogin: false, expiresAt: null },
                403,
              );
            return { ...summary, hasPassword: true };
          }),
          listEntries: fromPromise<Page<ShareEntry>, ListInput>(async ({ input }) => ({ data: children(input.folderId), totalCount: 1 })),
          locateEntry: fromPromise<LocatedEntry, LocateInput>(({ input }) => {
            located.push(input);
            return locateEntry(input.entryId, entryOf);
          }),
        },
      }),
      { input: { linkId: LINK, routeKind: 'public', viewerEmail: null, folderId: 'y2024' } },
    ).start();
    const settled = () => waitFor(actor, (s) => s.matches('browsing') || s.matches('credentials') || s.matches('refused'));
    await settled();
    expect(actor.getSnapshot().value).toBe('credentials');
    expect(located).toEqual([]);
    actor.send({ type: 'SUBMIT', credentials: { password: 'right-one' } });
    await settled();
    expect(actor.getSnapshot().value).toBe('browsing');
    expect(actor.getSnapshot().context.path.map((p) => p.id)).toEqual(['album', 'y2024']);
    // the password went with the summary only: the token stands for it afterwards
    expect(located).toEqual([{ linkId: LINK, entryId: 'y2024', credentials: {} }]);
  });

  it('a file in the address opens its folder with the file in focus', async () => {
    const m = start('beach');
    await m.settled();
    expect(m.ids()).toEqual(['album', 'y2024', 'summer']);
    expect(m.actor.getSnapshot().context.focusId).toBe('beach');
  });

  it('a folder no longer in the share opens the root and says why', async () => {
    const m = start('gone');
    await m.settled();
    expect(m.ids()).toEqual([]);
    expect(m.lists).toEqual([null]);
    expect(m.actor.getSnapshot().context.error?.code).toBe('FOLDER_NOT_FOUND');
  });

  it('follows back and forward: up the breadcrumbs, into a listed folder, to the root, or anywhere by locating it', async () => {
    const m = start(null);
    await m.settled();
    m.actor.send({ type: 'LOCATE', folderId: 'album' });
    await m.settled();
    expect(m.ids()).toEqual(['album']);
    m.actor.send({ type: 'LOCATE', folderId: 'y2024' });
    await m.settled();
    m.actor.send({ type: 'LOCATE', folderId: 'summer' });
    await m.settled();
    expect(m.ids()).toEqual(['album', 'y2024', 'summer']);
    m.actor.send({ type: 'LOCATE', folderId: 'y2024' });
    await m.settled();
    expect(m.ids()).toEqual(['album', 'y2024']);
    m.actor.send({ type: 'LOCATE', folderId: null });
    await m.settled();
    expect(m.ids()).toEqual([]);
    // neither up nor one step down: located through the entry calls
    expect(m.locates).toEqual([]);
    m.actor.send({ type: 'LOCATE', folderId: 'summer' });
    await m.settled();
    expect(m.ids()).toEqual(['album', 'y2024', 'summer']);
    expect(m.locates).toEqual(['summer']);
    expect(m.lists).toEqual([null, 'album', 'y2024', 'summer', 'y2024', null, 'summer']);
  });
});
