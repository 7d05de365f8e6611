import { describe, expect, it } from 'vitest';
import { createActor, fromCallback } from 'xstate';
import {
  summarize,
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
    q.actor.send({ type: 'ADD', target, files: [{ file: blob(300), name: 'a' }, { file: blob(100), name: 'b' }, { file: blob(600), name: 'c' }] });
    q.workerOf('a').send({ type: 'UPLOAD.PROGRESS', bytesSent: 150 });
    q.actor.send({ type: 'CANCEL', id: q.items()[2]!.id });
    expect(summarize(q.items())).toMatchObject({ total: 2, bytesTotal: 400, bytesSent: 150, percent: 37, active: 2, unfinished: 2 });
  });
});
