import { describe, expect, it } from 'vitest';
import { createActor, fromCallback } from 'xstate';
import { storeChanges } from './upload-store';
import {
  nextRate,
  secondsLeft,
  summarize,
  type StoredUpload,
  uploadQueueMachine,
  type UploadQueueEmitted,
  type UploadTarget,
  type UploadWorkerCommand,
  type UploadWorkerEvent,
  type UploadWorkerInput,
} from './upload-queue.machine';

/** A worker the test drives by hand: it reports what the test tells it to and records how it ended. */
interface FakeWorker {
  input: UploadWorkerInput;
  send: (event: Omit<UploadWorkerEvent, 'id' | 'attempt'> & Record<string, unknown>) => void;
  received: UploadWorkerCommand[];
  stopped: boolean;
}

const target: UploadTarget = { userId: 'u1', storageId: 's1', folderId: null };
const blob = (size: number) => new Blob([new Uint8Array(size)]);

const start = (concurrency = 3) => {
  const workers: FakeWorker[] = [];
  const discarded: string[] = [];
  const saved: UploadQueueEmitted[] = [];
  const actor = createActor(
    uploadQueueMachine.provide({
      actors: {
        uploadFile: fromCallback<UploadWorkerCommand, UploadWorkerInput>(({ input, sendBack, receive }) => {
          const worker: FakeWorker = {
            input,
            send: (event) => sendBack({ ...event, id: input.id, attempt: input.attempt } as UploadWorkerEvent),
            received: [],
            stopped: false,
          };
          receive((command) => worker.received.push(command));
          workers.push(worker);
          return () => {
            worker.stopped = true;
          };
        }),
      },
      actions: { discardUpload: (_, params) => void discarded.push(params.url) },
    }),
    { input: { concurrency } },
  ).start();
  actor.on('saved', (e) => void saved.push(e));
  const items = () => actor.getSnapshot().context.items;
  const statuses = () => items().map((i) => i.status);
  const running = () => workers.filter((w) => !w.stopped && !['done', 'failed', 'cancelled'].includes(items().find((i) => i.id === w.input.id)?.status ?? ''));
  const add = (...names: string[]) => actor.send({ type: 'ADD', target, files: names.map((name) => ({ file: blob(100), name })) });
  const workerOf = (name: string) => workers.filter((w) => w.input.name === name).at(-1)!;
  const finish = (name: string) => {
    workerOf(name).send({ type: 'UPLOAD.SAVING' });
    workerOf(name).send({ type: 'UPLOAD.DONE', entryId: `e-${name}` });
  };
  return { actor, workers, discarded, saved, items, statuses, running, add, workerOf, finish };
};

describe('upload queue machine', () => {
  it('runs at most `concurrency` uploads at once, in order, and starts the next as one finishes', () => {
    const q = start(3);
    q.add('a', 'b', 'c', 'd', 'e');
    expect(q.statuses()).toEqual(['progress', 'progress', 'progress', 'pending', 'pending']);
    expect(q.workers.map((w) => w.input.name)).toEqual(['a', 'b', 'c']);

    q.workerOf('b').send({ type: 'UPLOAD.PROGRESS', bytesSent: 40 });
    expect(q.items()[1]!.bytesSent).toBe(40);
    q.finish('b');
    expect(q.statuses()).toEqual(['progress', 'done', 'progress', 'progress', 'pending']);
    expect(q.saved).toEqual([{ type: 'saved', target, entryId: 'e-b', relativeDir: '' }]);

    q.finish('a');
    q.finish('c');
    q.finish('d');
    q.finish('e');
    expect(q.statuses()).toEqual(['done', 'done', 'done', 'done', 'done']);
    expect(q.workers).toHaveLength(5);
    expect(summarize(q.items())).toMatchObject({ total: 5, done: 5, unfinished: 0, percent: 100 });
  });

  it('a saving item still counts as running', () => {
    const q = start(1);
    q.add('a', 'b');
    q.workerOf('a').send({ type: 'UPLOAD.SAVING' });
    expect(q.statuses()).toEqual(['saving', 'pending']);
    q.workerOf('a').send({ type: 'UPLOAD.DONE' });
    expect(q.statuses()).toEqual(['done', 'progress']);
  });

  it('pause stops the running workers and starts nothing; resume continues from the upload URL', () => {
    const q = start(2);
    q.add('a', 'b', 'c');
    q.workerOf('a').send({ type: 'UPLOAD.URL', url: '/api/uploads/aaa' });
    q.workerOf('a').send({ type: 'UPLOAD.PROGRESS', bytesSent: 60 });
    q.actor.send({ type: 'PAUSE' });
    expect(q.statuses()).toEqual(['paused', 'paused', 'pending']);
    expect(q.workers.every((w) => w.stopped)).toBe(true);
    expect(q.workers.flatMap((w) => w.received)).toEqual([]);

    // Late reports of a stopped worker change nothing.
    q.workers[0]!.send({ type: 'UPLOAD.PROGRESS', bytesSent: 90 });
    q.workers[0]!.send({ type: 'UPLOAD.DONE' });
    expect(q.statuses()).toEqual(['paused', 'paused', 'pending']);
    expect(q.items()[0]!.bytesSent).toBe(60);

    q.actor.send({ type: 'RESUME' });
    expect(q.statuses()).toEqual(['progress', 'progress', 'pending']);
    const resumed = q.workerOf('a');
    expect(resumed.input).toMatchObject({ uploadUrl: '/api/uploads/aaa', attempt: 2 });
    expect(q.workerOf('b').input.uploadUrl).toBeNull();
    q.finish('a');
    expect(q.statuses()).toEqual(['done', 'progress', 'progress']);
  });

  it('pauses and resumes a single item without holding up the rest', () => {
    const q = start(1);
    q.add('a', 'b');
    q.actor.send({ type: 'PAUSE', id: q.items()[0]!.id });
    expect(q.statuses()).toEqual(['paused', 'progress']);
    q.actor.send({ type: 'RESUME', id: q.items()[0]!.id });
    expect(q.statuses()).toEqual(['pending', 'progress']);
    q.finish('b');
    expect(q.statuses()).toEqual(['progress', 'done']);
  });

  it('adding files while paused queues them without starting any', () => {
    const q = start(3);
    q.actor.send({ type: 'PAUSE' });
    q.add('a');
    expect(q.statuses()).toEqual(['pending']);
    expect(q.workers).toHaveLength(0);
    q.actor.send({ type: 'RESUME' });
    expect(q.statuses()).toEqual(['progress']);
  });

  it('a failed item frees its slot and can be retried, resuming its upload', () => {
    const q = start(1);
    q.add('a', 'b');
    q.workerOf('a').send({ type: 'UPLOAD.URL', url: '/api/uploads/a1' });
    q.workerOf('a').send({ type: 'UPLOAD.FAILED', error: { code: 'NETWORK_ERROR', message: 'down', data: null } });
    expect(q.statuses()).toEqual(['failed', 'progress']);
    expect(q.items()[0]!.error?.code).toBe('NETWORK_ERROR');
    expect(summarize(q.items()).failed).toBe(1);

    q.actor.send({ type: 'RETRY' });
    expect(q.statuses()).toEqual(['pending', 'progress']);
    expect(q.items()[0]!.error).toBeNull();
    q.finish('b');
    expect(q.statuses()).toEqual(['progress', 'done']);
    expect(q.workerOf('a').input).toMatchObject({ uploadUrl: '/api/uploads/a1', attempt: 2 });
  });

  it('does not retry what a retry cannot fix', () => {
    const q = start(2);
    q.actor.send({
      type: 'ADD',
      target,
      files: [
        { file: blob(1), name: 'x.app', rejection: { code: 'NAME_INVALID', message: 'no', data: null } },
        { file: blob(1), name: 'ok.txt' },
      ],
    });
    expect(q.statuses()).toEqual(['failed', 'progress']);
    q.workerOf('ok.txt').send({ type: 'UPLOAD.FAILED', error: { code: 'NAME_EXISTS', message: 'taken', data: null }, retryable: false });
    q.actor.send({ type: 'RETRY' });
    expect(q.statuses()).toEqual(['failed', 'failed']);
    expect(q.workers).toHaveLength(1);
  });

  it('cancel terminates a running upload and discards a paused one, but never a saving one', () => {
    const q = start(3);
    q.add('a', 'b', 'c', 'd');
    const [a, b, c] = q.items();
    q.workerOf('b').send({ type: 'UPLOAD.URL', url: '/api/uploads/bbb' });
    q.actor.send({ type: 'PAUSE', id: b!.id });
    q.workerOf('c').send({ type: 'UPLOAD.SAVING' });
    expect(q.statuses()).toEqual(['progress', 'paused', 'saving', 'progress']);

    q.actor.send({ type: 'CANCEL', id: c!.id });
    expect(q.statuses()[2]).toBe('saving');
    expect(q.workerOf('c').stopped).toBe(false);

    q.actor.send({ type: 'CANCEL', id: a!.id });
    expect(q.statuses()[0]).toBe('cancelled');
    expect(q.workerOf('a').received).toEqual([{ type: 'TERMINATE' }]);
    expect(q.workerOf('a').stopped).toBe(true);

    q.actor.send({ type: 'CANCEL', id: b!.id });
    expect(q.statuses()[1]).toBe('cancelled');
    expect(q.discarded).toEqual(['/api/uploads/bbb']);

    // Cancel all: everything but the saving item.
    q.actor.send({ type: 'CANCEL' });
    expect(q.statuses()).toEqual(['cancelled', 'cancelled', 'saving', 'cancelled']);
    q.workerOf('c').send({ type: 'UPLOAD.DONE' });
    expect(q.statuses()).toEqual(['cancelled', 'cancelled', 'done', 'cancelled']);
    expect(summarize(q.items())).toMatchObject({ total: 1, done: 1, unfinished: 0 });
  });

  it('clear keeps only what is still under way', () => {
    const q = start(1);
    q.add('a', 'b', 'c');
    q.finish('a');
    q.workerOf('b').send({ type: 'UPLOAD.FAILED', error: { code: 'X', message: 'x', data: null } });
    q.actor.send({ type: 'CLEAR' });
    expect(q.items().map((i) => i.name)).toEqual(['c']);
  });

  it('summarises bytes over the items not cancelled', () => {
    const q = start(2);
    q.actor.send({
      type: 'ADD',
      target,
      files: [
        { file: blob(300), name: 'a' },
        { file: blob(100), name: 'b' },
        { file: blob(600), name: 'c' },
      ],
    });
    q.workerOf('a').send({ type: 'UPLOAD.PROGRESS', bytesSent: 150 });
    q.actor.send({ type: 'CANCEL', id: q.items()[2]!.id });
    expect(summarize(q.items())).toMatchObject({ total: 2, bytesTotal: 400, bytesSent: 150, percent: 37, active: 2, unfinished: 2 });
  });

  it('measures speed from the reports of one run and says the time left; a new run measures afresh', () => {
    const q = start(1);
    q.actor.send({ type: 'ADD', target, files: [{ file: blob(10_000), name: 'a' }] });
    q.workerOf('a').send({ type: 'UPLOAD.PROGRESS', bytesSent: 1000, at: 5_000 });
    expect(q.items()[0]!.rate).toBeNull();
    expect(secondsLeft(q.items()[0]!)).toBeNull();
    q.workerOf('a').send({ type: 'UPLOAD.PROGRESS', bytesSent: 3000, at: 6_000 });
    expect(q.items()[0]!.rate).toBe(2000);
    expect(secondsLeft(q.items()[0]!)).toBe(4);
    q.workerOf('a').send({ type: 'UPLOAD.PROGRESS', bytesSent: 4000, at: 7_000 });
    expect(q.items()[0]!.rate).toBeCloseTo(2000 * 0.7 + 1000 * 0.3);
    q.actor.send({ type: 'PAUSE' });
    expect(secondsLeft(q.items()[0]!)).toBeNull();
    q.actor.send({ type: 'RESUME' });
    expect(q.items()[0]).toMatchObject({ rate: null, sample: null, bytesSent: 4000 });
  });

  it('smooths the speed, and ignores a report that took no time', () => {
    expect(nextRate(null, 500, 250)).toBe(2000);
    expect(nextRate(1000, 500, 0)).toBe(1000);
    expect(nextRate(1000, 2000, 1000)).toBe(1300);
  });

  it('keeps the name the file was saved under', () => {
    const q = start(1);
    q.add('notes.txt');
    q.workerOf('notes.txt').send({ type: 'UPLOAD.SAVING' });
    q.workerOf('notes.txt').send({ type: 'UPLOAD.DONE', savedName: 'notes (1).txt' });
    expect(q.items()[0]).toMatchObject({ status: 'done', name: 'notes.txt', savedName: 'notes (1).txt' });
  });

  const stored = (over: Partial<StoredUpload> = {}): StoredUpload => ({
    id: 'kept-1',
    batchId: 'b1',
    name: 'big.bin',
    relativeDir: '',
    size: 100,
    lastModified: 1,
    fingerprint: 'fp-big',
    target,
    uploadUrl: '/api/uploads/kept',
    bytesSent: 40,
    ...over,
  });

  it('lists uploads read back after a reload as interrupted, starts none, and resumes one from its upload URL once its file is given back', () => {
    const q = start(2);
    q.actor.send({ type: 'RESTORE', items: [stored(), stored({ id: 'kept-2', name: 'other.bin', uploadUrl: null })] });
    expect(q.statuses()).toEqual(['interrupted', 'interrupted']);
    expect(q.items()[0]).toMatchObject({ file: null, bytesSent: 40, uploadUrl: '/api/uploads/kept' });
    expect(q.workers).toHaveLength(0);
    expect(summarize(q.items())).toMatchObject({ interrupted: 2, unfinished: 2, underWay: 0, active: 0 });

    // The same list read twice adds nothing.
    q.actor.send({ type: 'RESTORE', items: [stored()] });
    expect(q.items()).toHaveLength(2);

    // A file of another size is not the same file.
    q.actor.send({ type: 'REATTACH', id: 'kept-1', file: blob(99) });
    expect(q.statuses()).toEqual(['interrupted', 'interrupted']);

    const file = blob(100);
    q.actor.send({ type: 'REATTACH', id: 'kept-1', file });
    expect(q.statuses()).toEqual(['progress', 'interrupted']);
    expect(q.workerOf('big.bin').input).toMatchObject({ uploadUrl: '/api/uploads/kept', file, attempt: 1 });
    q.finish('big.bin');
    expect(q.statuses()).toEqual(['done', 'interrupted']);
  });

  it('cancelling an interrupted upload drops its bytes on the server; removing any item but a saving one takes it off the list', () => {
    const q = start(2);
    q.actor.send({ type: 'RESTORE', items: [stored(), stored({ id: 'kept-2', uploadUrl: '/api/uploads/k2' })] });
    q.actor.send({ type: 'CANCEL', id: 'kept-1' });
    expect(q.statuses()).toEqual(['cancelled', 'interrupted']);
    expect(q.discarded).toEqual(['/api/uploads/kept']);
    q.actor.send({ type: 'REMOVE', id: 'kept-2' });
    expect(q.discarded).toEqual(['/api/uploads/kept', '/api/uploads/k2']);

    q.add('a', 'b', 'c');
    q.actor.send({
      type: 'ADD',
      target,
      files: [{ file: blob(1), name: 'refused', rejection: { code: 'SECURE_FETCH_TOO_LARGE', message: 'too big', data: null } }],
    });
    q.workerOf('a').send({ type: 'UPLOAD.SAVING' });
    const id = (name: string) => q.items().find((i) => i.name === name)!.id;
    q.actor.send({ type: 'REMOVE', id: id('a') });
    q.actor.send({ type: 'REMOVE', id: id('b') });
    q.actor.send({ type: 'REMOVE', id: id('refused') });
    expect(q.items().map((i) => `${i.name}:${i.status}`)).toEqual(['big.bin:cancelled', 'a:saving', 'c:progress']);
    expect(q.workerOf('b').received).toEqual([{ type: 'TERMINATE' }]);
    expect(q.workerOf('b').stopped).toBe(true);
  });

  it('counts a refusal no retry can fix neither in the files nor in the bytes', () => {
    const q = start(2);
    q.actor.send({
      type: 'ADD',
      target,
      files: [
        { file: blob(100), name: 'a' },
        { file: blob(100), name: 'b' },
        { file: blob(21_000), name: 'big', rejection: { code: 'SECURE_FETCH_TOO_LARGE', message: 'too big', data: null } },
      ],
    });
    q.finish('a');
    q.finish('b');
    expect(summarize(q.items())).toMatchObject({ done: 2, total: 2, percent: 100, failed: 1, unfinished: 0 });
  });

  it('keeps in the browser exactly the unfinished uploads of a signed-in user, rewriting a record only when it changed', () => {
    const q = start(1);
    q.add('a', 'b');
    q.actor.send({ type: 'ADD', target: { userId: '', storageId: '', folderId: null }, files: [{ file: blob(5), name: 'link-file' }] });
    const first = storeChanges(new Map(), q.items());
    expect(first.put.map((r) => r.name)).toEqual(['a', 'b']);
    expect(first.remove).toEqual([]);

    expect(storeChanges(first.next, q.items()).put).toEqual([]);
    q.workerOf('a').send({ type: 'UPLOAD.URL', url: '/api/uploads/a' });
    const second = storeChanges(first.next, q.items());
    expect(second.put.map((r) => [r.name, r.uploadUrl])).toEqual([['a', '/api/uploads/a']]);

    q.finish('a');
    const third = storeChanges(second.next, q.items());
    expect(third.remove).toEqual([q.items()[0]!.id]);
    expect([...third.next.keys()]).toEqual([q.items()[1]!.id]);
  });
});
