import { describe, expect, it, vi } from 'vitest';
import { createActor, fromCallback, fromPromise } from 'xstate';
import { ApiError } from '../../api/errors';
import type { StorageTask } from '../files/files.api';
import {
  type TaskStart,
  type UnlockerEvent,
  type Unpacked,
  stepsOf,
  UNLOCKER_POLL_MS,
  unlockerMachine,
  unlockerStatus,
  unlockerStep,
} from './unlocker.machine';

const file = (name: string, size = 10) => new File([new Uint8Array(size)], name);

/** The unlocker with stand-in actors: what each was asked, and handles to finish them. */
const harness = (opts: { wrongPassphrase?: boolean; polls?: StorageTask[]; unpacked?: Unpacked } = {}) => {
  const calls: string[] = [];
  const starts: TaskStart[] = [];
  const polls = [...(opts.polls ?? [])];
  let downloadSend: ((e: UnlockerEvent) => void) | null = null;
  let decryptSend: ((e: UnlockerEvent) => void) | null = null;
  const aborted: string[] = [];
  const machine = unlockerMachine.provide({
    actors: {
      unlockKey: fromPromise<void, { passphrase: string }>(async ({ input }) => {
        calls.push(`unlock ${input.passphrase}`);
        if (opts.wrongPassphrase) throw new ApiError('WRONG_PASSPHRASE', 'Wrong passphrase');
      }),
      startTask: fromPromise<{ id: string }, TaskStart>(async ({ input }) => {
        starts.push(input);
        return { id: `task${starts.length}` };
      }),
      pollTask: fromPromise<StorageTask, { id: string }>(async ({ input }) => {
        calls.push(`poll ${input.id}`);
        return polls.shift() ?? { id: input.id, status: 'running' };
      }),
      download: fromCallback<UnlockerEvent, { url: string }>(({ sendBack, input }) => {
        calls.push(`download ${input.url}`);
        downloadSend = sendBack;
        return () => aborted.push('download');
      }),
      unpack: fromPromise<Unpacked, { files: File[] }>(async ({ input }) => {
        calls.push(`unpack ${input.files.map((f) => f.name).join(',')}`);
        return opts.unpacked ?? input.files.map((f) => ({ name: f.name.replace(/\.pgp$/, ''), size: f.size }));
      }),
      decrypt: fromCallback<UnlockerEvent, { files: File[] }>(({ sendBack }) => {
        calls.push('decrypt');
        decryptSend = sendBack;
        return () => aborted.push('decrypt');
      }),
    },
  });
  const actor = createActor(machine).start();
  return {
    actor,
    calls,
    starts,
    aborted,
    fromDownload: (e: UnlockerEvent) => downloadSend?.(e),
    fromDecrypt: (e: UnlockerEvent) => decryptSend?.(e),
  };
};
const settle = () => vi.advanceTimersByTimeAsync(0);

describe('unlocker machine', () => {
  it('asks the passphrase once, then unpacks and decrypts picked files with their progress until done', async () => {
    const h = harness();
    expect(unlockerStatus(h.actor.getSnapshot())).toBe('none');
    h.actor.send({ type: 'START', source: { kind: 'files', files: [file('a.txt.pgp', 7), file('b.pdf.pgp', 9)] } });
    expect(h.actor.getSnapshot().value).toBe('askingPassphrase');
    expect(stepsOf(h.actor.getSnapshot().context.origin)).toEqual(['unpacking', 'decrypting']);
    h.actor.send({ type: 'UNLOCK', passphrase: 'correct horse' });
    await new Promise((r) => setTimeout(r, 0));
    expect(h.calls).toEqual(['unlock correct horse', 'unpack a.txt.pgp,b.pdf.pgp', 'decrypt']);
    expect(unlockerStep(h.actor.getSnapshot())).toBe('decrypting');
    expect(unlockerStatus(h.actor.getSnapshot())).toBe('running');
    expect(h.actor.getSnapshot().context.items.map((i) => [i.name, i.size, i.state])).toEqual([
      ['a.txt', 7, 'waiting'],
      ['b.pdf', 9, 'waiting'],
    ]);
    h.fromDecrypt({ type: 'PROGRESS', index: 0, read: 4, decrypted: 2, state: 'working' });
    expect(h.actor.getSnapshot().context.items[0]).toMatchObject({ read: 4, decrypted: 2, state: 'working' });
    h.fromDecrypt({ type: 'PROGRESS', index: 0, read: 7, decrypted: 5, state: 'saved' });
    h.fromDecrypt({ type: 'PROGRESS', index: 1, state: 'failed', error: { code: 'NOT_FOR_THIS_KEY', message: 'x', data: null } });
    h.fromDecrypt({ type: 'DECRYPTED' });
    expect(h.actor.getSnapshot().value).toBe('done');
    expect(unlockerStatus(h.actor.getSnapshot())).toBe('done');
    expect(h.actor.getSnapshot().context.items.map((i) => i.state)).toEqual(['saved', 'failed']);
    h.actor.send({ type: 'RESET' });
    expect(h.actor.getSnapshot().value).toBe('idle');
    expect(h.actor.getSnapshot().context.items).toEqual([]);
  });

  it('a wrong passphrase returns to the passphrase with its error, and nothing is read', async () => {
    const h = harness({ wrongPassphrase: true });
    h.actor.send({ type: 'START', source: { kind: 'files', files: [file('a.pgp')] } });
    h.actor.send({ type: 'UNLOCK', passphrase: 'nope nope' });
    await new Promise((r) => setTimeout(r, 0));
    expect(h.actor.getSnapshot().value).toBe('askingPassphrase');
    expect(h.actor.getSnapshot().context.passphraseError?.code).toBe('WRONG_PASSPHRASE');
    expect(h.calls).toEqual(['unlock nope nope']);
  });

  it('an empty passphrase is not tried', () => {
    const h = harness();
    h.actor.send({ type: 'START', source: { kind: 'files', files: [file('a.pgp')] } });
    h.actor.send({ type: 'UNLOCK', passphrase: '' });
    expect(h.actor.getSnapshot().value).toBe('askingPassphrase');
    expect(h.calls).toEqual([]);
  });

  it('a direct download URL goes straight to downloading, then unpacks what arrived', async () => {
    const h = harness();
    h.actor.send({ type: 'START', source: { kind: 'url', url: '/api/archives/x.zip' } });
    h.actor.send({ type: 'UNLOCK', passphrase: 'pass word' });
    await new Promise((r) => setTimeout(r, 0));
    expect(unlockerStep(h.actor.getSnapshot())).toBe('downloading');
    expect(h.starts).toEqual([]);
    h.fromDownload({ type: 'DOWNLOAD_PROGRESS', loaded: 50, total: 100 });
    expect(h.actor.getSnapshot().context.download).toEqual({ loaded: 50, total: 100 });
    h.fromDownload({ type: 'DOWNLOADED', file: file('x.zip', 100) });
    await new Promise((r) => setTimeout(r, 0));
    expect(h.calls).toEqual(['unlock pass word', 'download /api/archives/x.zip', 'unpack x.zip', 'decrypt']);
  });

  it('items of a storage: the archive task is polled every 2 s until done, then its URL is downloaded', async () => {
    vi.useFakeTimers();
    try {
      const h = harness({
        polls: [
          { id: 'task1', status: 'running' },
          { id: 'task1', status: 'running' },
          { id: 'task1', status: 'done', downloadURL: '/api/dl/a.zip' },
        ],
      });
      h.actor.send({ type: 'START', source: { kind: 'storage', storageId: 's1', itemIds: ['i1', 'i2'] } });
      h.actor.send({ type: 'UNLOCK', passphrase: 'pass word' });
      await settle();
      expect(h.starts).toEqual([{ storageId: 's1', itemIds: ['i1', 'i2'], skip2fa: null }]);
      expect(stepsOf(h.actor.getSnapshot().context.origin)).toEqual(['gettingDownloadURL', 'downloading', 'unpacking', 'decrypting']);
      expect(unlockerStep(h.actor.getSnapshot())).toBe('gettingDownloadURL');
      expect(h.calls.filter((c) => c.startsWith('poll'))).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(UNLOCKER_POLL_MS - 1);
      expect(h.calls.filter((c) => c.startsWith('poll'))).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(1);
      expect(h.calls.filter((c) => c.startsWith('poll'))).toHaveLength(2);
      await vi.advanceTimersByTimeAsync(UNLOCKER_POLL_MS);
      expect(h.calls.filter((c) => c.startsWith('poll'))).toHaveLength(3);
      expect(unlockerStep(h.actor.getSnapshot())).toBe('downloading');
      expect(h.calls).toContain('download /api/dl/a.zip');
    } finally {
      vi.useRealTimers();
    }
  });

  it('a task failing with 5102 asks to skip the second factor and creates it again with the choice and code', async () => {
    const h = harness({
      polls: [
        { id: 'task1', status: 'failed', errorCode: '5102', errorMessage: '2FA needed' },
        { id: 'task2', status: 'done', downloadURL: '/api/dl/b.zip' },
      ],
    });
    h.actor.send({ type: 'START', source: { kind: 'storage', storageId: 's1', itemIds: ['i1'] } });
    h.actor.send({ type: 'UNLOCK', passphrase: 'pass word' });
    await new Promise((r) => setTimeout(r, 0));
    expect(h.actor.getSnapshot().matches({ gettingDownloadURL: 'confirmingSkip2fa' })).toBe(true);
    h.actor.send({ type: 'SKIP_2FA', code: '123456' });
    await new Promise((r) => setTimeout(r, 0));
    expect(h.starts.map((s) => s.skip2fa)).toEqual([null, { code: '123456' }]);
    expect(unlockerStep(h.actor.getSnapshot())).toBe('downloading');
  });

  it('declining to skip the second factor stops with the 5102 error', async () => {
    const h = harness({ polls: [{ id: 'task1', status: 'failed', errorCode: 5102 }] });
    h.actor.send({ type: 'START', source: { kind: 'storage', storageId: 's1', itemIds: ['i1'] } });
    h.actor.send({ type: 'UNLOCK', passphrase: 'pass word' });
    await new Promise((r) => setTimeout(r, 0));
    h.actor.send({ type: 'CANCEL_SKIP_2FA' });
    expect(h.actor.getSnapshot().value).toBe('failed');
    expect(h.actor.getSnapshot().context.error?.code).toBe('5102');
    expect(h.starts).toHaveLength(1);
  });

  it('any other task failure shows its error and stops', async () => {
    const h = harness({ polls: [{ id: 'task1', status: 'failed', errorCode: '5021', errorMessage: 'Download size exceeded' }] });
    h.actor.send({ type: 'START', source: { kind: 'storage', storageId: 's1', itemIds: ['i1'] } });
    h.actor.send({ type: 'UNLOCK', passphrase: 'pass word' });
    await new Promise((r) => setTimeout(r, 0));
    expect(h.actor.getSnapshot().value).toBe('failed');
    expect(h.actor.getSnapshot().context.error).toMatchObject({ code: '5021', message: 'Download size exceeded' });
    expect(h.calls.filter((c) => c.startsWith('download'))).toEqual([]);
  });

  it('a second 5102 after skipping fails instead of asking again', async () => {
    const h = harness({
      polls: [
        { id: 'task1', status: 'failed', errorCode: '5102' },
        { id: 'task2', status: 'failed', errorCode: '5102', errorMessage: 'still' },
      ],
    });
    h.actor.send({ type: 'START', source: { kind: 'storage', storageId: 's1', itemIds: ['i1'] } });
    h.actor.send({ type: 'UNLOCK', passphrase: 'pass word' });
    await new Promise((r) => setTimeout(r, 0));
    h.actor.send({ type: 'SKIP_2FA' });
    await new Promise((r) => setTimeout(r, 0));
    expect(h.actor.getSnapshot().value).toBe('failed');
    expect(h.starts.map((s) => s.skip2fa)).toEqual([null, {}]);
  });

  it('a failed unpack or decrypt shows the error and stops', async () => {
    const h = harness();
    h.actor.send({ type: 'START', source: { kind: 'files', files: [file('a.zip')] } });
    h.actor.send({ type: 'UNLOCK', passphrase: 'pass word' });
    await new Promise((r) => setTimeout(r, 0));
    h.fromDecrypt({ type: 'FAILED', error: { code: 'UNLOCKER_SAVE_FAILED', message: 'disk full', data: null } });
    expect(h.actor.getSnapshot().value).toBe('failed');
    expect(h.actor.getSnapshot().context.error?.code).toBe('UNLOCKER_SAVE_FAILED');
  });

  it('Stop aborts the running step and resets everything', async () => {
    const h = harness();
    h.actor.send({ type: 'START', source: { kind: 'url', url: '/api/dl/c.zip' } });
    h.actor.send({ type: 'UNLOCK', passphrase: 'pass word' });
    await new Promise((r) => setTimeout(r, 0));
    h.fromDownload({ type: 'DOWNLOAD_PROGRESS', loaded: 10, total: 100 });
    h.actor.send({ type: 'STOP' });
    expect(h.aborted).toEqual(['download']);
    expect(h.actor.getSnapshot().value).toBe('idle');
    expect(h.actor.getSnapshot().context).toMatchObject({ source: null, download: { loaded: 0, total: null }, items: [], error: null });
    // the stopped download can no longer move the machine
    h.fromDownload({ type: 'DOWNLOADED', file: file('c.zip') });
    expect(h.actor.getSnapshot().value).toBe('idle');
  });

  it('Stop while decrypting aborts the decryption', async () => {
    const h = harness();
    h.actor.send({ type: 'START', source: { kind: 'files', files: [file('a.pgp')] } });
    h.actor.send({ type: 'UNLOCK', passphrase: 'pass word' });
    await new Promise((r) => setTimeout(r, 0));
    h.actor.send({ type: 'STOP' });
    expect(h.aborted).toEqual(['decrypt']);
    expect(unlockerStatus(h.actor.getSnapshot())).toBe('none');
  });
});
