import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createActor, fromCallback } from 'xstate';
import { uploadQueueMachine, type UploadTarget, type UploadWorkerCommand, type UploadWorkerEvent, type UploadWorkerInput } from './upload-queue.machine';

interface Worker {
  input: UploadWorkerInput;
  sendBack: (e: UploadWorkerEvent) => void;
  stopped: boolean;
}

type Step =
  | { kind: 'add'; count: number }
  | { kind: 'report'; pick: number; what: 'progress' | 'saving' | 'done' | 'failed' }
  | { kind: 'pause' | 'resume' | 'retry' | 'cancel'; pick: number | null }
  | { kind: 'remove' | 'reattach'; pick: number }
  | { kind: 'restore'; count: number }
  | { kind: 'clear' };

const pick = fc.option(fc.nat(20), { nil: null });
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('add' as const), count: fc.integer({ min: 1, max: 4 }) }),
  fc.record({
    kind: fc.constant('report' as const),
    pick: fc.nat(20),
    what: fc.constantFrom('progress' as const, 'saving' as const, 'done' as const, 'failed' as const),
  }),
  fc.record({ kind: fc.constantFrom('pause' as const, 'resume' as const, 'retry' as const, 'cancel' as const), pick }),
  fc.record({ kind: fc.constant('clear' as const) }),
  fc.record({ kind: fc.constantFrom('remove' as const, 'reattach' as const), pick: fc.nat(20) }),
  fc.record({ kind: fc.constant('restore' as const), count: fc.integer({ min: 1, max: 3 }) }),
);

const target: UploadTarget = { userId: 'u', storageId: 's', folderId: null };

describe('upload queue machine, any sequence of events', () => {
  it('never runs more than its concurrency, leaves no slot idle while work waits, never cancels a saving item, and keeps exactly one live worker per running item and none else', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 4 }), fc.array(step, { maxLength: 60 }), (concurrency, steps) => {
        const workers: Worker[] = [];
        const actor = createActor(
          uploadQueueMachine.provide({
            actors: {
              uploadFile: fromCallback<UploadWorkerCommand, UploadWorkerInput>(({ input, sendBack }) => {
                const w: Worker = { input, sendBack: sendBack as (e: UploadWorkerEvent) => void, stopped: false };
                workers.push(w);
                return () => {
                  w.stopped = true;
                };
              }),
            },
          }),
          { input: { concurrency } },
        ).start();
        const items = () => actor.getSnapshot().context.items;
        let restored = 0;

        for (const s of steps) {
          const before = new Map(items().map((i) => [i.id, i.status]));
          const chosen = (n: number | null) => (n === null ? undefined : items()[n % Math.max(1, items().length)]?.id);
          switch (s.kind) {
            case 'add':
              actor.send({ type: 'ADD', target, files: Array.from({ length: s.count }, (_, k) => ({ file: new Blob(['x'.repeat(k + 1)]), name: `f${k}` })) });
              break;
            case 'report': {
              // Any worker, live or already stopped: late reports of stopped ones must change nothing.
              const w = workers[s.pick % Math.max(1, workers.length)];
              if (!w) break;
              const wasStopped = w.stopped;
              const base = { id: w.input.id, attempt: w.input.attempt };
              if (s.what === 'progress') w.sendBack({ type: 'UPLOAD.PROGRESS', ...base, bytesSent: 1 });
              if (s.what === 'saving') w.sendBack({ type: 'UPLOAD.SAVING', ...base });
              if (s.what === 'done') w.sendBack({ type: 'UPLOAD.DONE', ...base });
              if (s.what === 'failed') w.sendBack({ type: 'UPLOAD.FAILED', ...base, error: { code: 'X', message: 'x', data: null } });
              if (wasStopped) expect(new Map(items().map((i) => [i.id, i.status]))).toEqual(before);
              break;
            }
            case 'pause':
              actor.send({ type: 'PAUSE', id: chosen(s.pick) });
              break;
            case 'resume':
              actor.send({ type: 'RESUME', id: chosen(s.pick) });
              break;
            case 'retry':
              actor.send({ type: 'RETRY', id: chosen(s.pick) });
              break;
            case 'cancel':
              actor.send({ type: 'CANCEL', id: chosen(s.pick) });
              break;
            case 'clear':
              actor.send({ type: 'CLEAR' });
              break;
            case 'remove':
              actor.send({ type: 'REMOVE', id: chosen(s.pick)! });
              break;
            case 'restore':
              restored += 1;
              actor.send({
                type: 'RESTORE',
                items: Array.from({ length: s.count }, (_, k) => ({
                  id: `kept-${restored}-${k}`,
                  batchId: 'kept',
                  name: `kept${k}`,
                  relativeDir: '',
                  size: k + 1,
                  lastModified: 0,
                  fingerprint: `fp${k}`,
                  target,
                  uploadUrl: `/api/uploads/kept-${restored}-${k}`,
                  bytesSent: 0,
                })),
              });
              break;
            case 'reattach': {
              const item = items()[s.pick % Math.max(1, items().length)];
              if (item) actor.send({ type: 'REATTACH', id: item.id, file: new Blob(['x'.repeat(item.size)]) });
              break;
            }
          }
          // A saving item is never taken off the list; an interrupted one never runs without its file.
          for (const [id, status] of before) if (status === 'saving') expect(items().some((i) => i.id === id)).toBe(true);
          for (const i of items()) if (i.status === 'progress' || i.status === 'pending') expect(i.file).not.toBeNull();

          const now = items();
          const running = now.filter((i) => i.status === 'progress' || i.status === 'saving');
          expect(running.length).toBeLessThanOrEqual(concurrency);
          if (!actor.getSnapshot().context.paused && running.length < concurrency) expect(now.some((i) => i.status === 'pending')).toBe(false);
          for (const i of now) if (before.get(i.id) === 'saving') expect(i.status).not.toBe('cancelled');
          for (const i of running) {
            const live = workers.filter((w) => w.input.id === i.id && !w.stopped && w.input.attempt === i.attempt);
            expect(live).toHaveLength(1);
          }
          // No worker outlives its item's run: done, failed, paused and cancelled items hold none.
          expect(workers.filter((w) => !w.stopped)).toHaveLength(running.length);
          for (const w of workers) {
            const item = now.find((i) => i.id === w.input.id);
            if (!w.stopped && item?.status === 'progress') expect(item.attempt).toBe(w.input.attempt);
          }
        }
        actor.stop();
      }),
      { numRuns: 300 },
    );
    // 300 sequences take about a second on an idle machine; a busy one must not turn that into a failure
  }, 30_000);
});
