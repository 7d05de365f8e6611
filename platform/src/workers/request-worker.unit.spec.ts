import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { RequestWorker, type WorkerMessage } from './request-worker';

const dir = mkdtempSync(path.join(os.tmpdir(), 'axel-request-worker-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A worker that echoes, fails, sends a message of its own, answers late, or exits, as asked. */
const script = path.join(dir, 'test.worker.mjs');
writeFileSync(
  script,
  `import { parentPort } from 'node:worker_threads';
parentPort.on('message', (msg) => {
  if (msg.t === 'echo') parentPort.postMessage({ t: 'done', req: msg.req, value: msg.value, length: 3 });
  else if (msg.t === 'fail') parentPort.postMessage({ t: 'error', req: msg.req, id: 7, message: 'no such thing' });
  else if (msg.t === 'note') parentPort.postMessage({ t: 'ack', id: 7, slot: 2 });
  else if (msg.t === 'late') setTimeout(() => parentPort.postMessage({ t: 'done', req: msg.req, value: 'late' }), 200);
  else if (msg.t === 'die') process.exit(3);
});
`,
);

describe('RequestWorker', () => {
  it('settles each request with its own answer, fails a request the thread refuses, and passes on its other messages', async () => {
    const seen: { msg: WorkerMessage; error?: string }[] = [];
    const w = new RequestWorker(pathToFileURL(script), {
      name: 'test-worker',
      title: 'test worker',
      prefixErrors: true,
      onExit: () => undefined,
      onMessage: (msg, error) => seen.push({ msg, error: error?.message }),
    });
    const [a, b] = await Promise.all([w.request({ t: 'echo', value: 'a' }), w.request({ t: 'echo', value: 'b' })]);
    expect(a).toEqual({ value: 'a', length: 3 });
    expect(b).toEqual({ value: 'b', length: 3 });
    await expect(w.request({ t: 'fail' })).rejects.toThrow('test worker: no such thing');
    w.post({ t: 'note' });
    await expect.poll(() => seen.length).toBe(2);
    expect(seen[0]).toMatchObject({ msg: { t: 'error', id: 7 }, error: 'test worker: no such thing' });
    expect(seen[1]).toMatchObject({ msg: { t: 'ack', id: 7, slot: 2 } });
    expect(w.load).toBe(0);
    w.hold();
    expect(w.load).toBe(1);
    w.release();
    expect(w.load).toBe(0);
    await w.terminate();
  });

  it('fails every request in flight when the thread dies, tells its pool, and refuses later ones', async () => {
    let exited: Error | undefined;
    const w = new RequestWorker(pathToFileURL(script), { name: 'test-worker', title: 'test worker', onExit: (error) => (exited = error) });
    const late = w.request({ t: 'late' });
    expect(w.load).toBe(1);
    w.post({ t: 'die' });
    await expect(late).rejects.toThrow('test worker exited with code 3');
    expect(exited?.message).toBe('test worker exited with code 3');
    expect(w.dead).toBe(exited);
    await expect(w.request({ t: 'echo' })).rejects.toBe(exited);
    expect(() => w.post({ t: 'echo' })).toThrow('test worker exited with code 3');
  });
});
