import { readMessage } from 'openpgp';
import { describe, expect, it } from 'vitest';
import { createActor, createMachine } from 'xstate';
import { decryptMessageStream, encryptFile, generateProtectedKey, unlockSessionKey } from '../e2ee/crypto.core';
import type { UnlockerEvent } from './unlocker.machine';
import { listSources, unlockerPipeline } from './unlocker.pipeline';
import { writeZip } from './zip-writer.testing';

/** A whole message as the archive holds it: the key packets, then the content. */
const wholeMessage = async (publicKey: string, plaintext: Uint8Array) => {
  const file = await encryptFile([publicKey], plaintext);
  const keyPackets = (await readMessage({ armoredMessage: file.pgpmessage })).packets.write() as Uint8Array;
  return Buffer.concat([keyPackets, file.content]);
};

const zipOf = async (entries: { name: string; data: Buffer; compress: boolean }[]) => writeZip([{ name: 'Docs/' }, ...entries]);

/** Runs the decrypt step alone, collecting what it tells the machine. */
const runDecrypt = (logic: ReturnType<typeof unlockerPipeline>['decrypt'], files: File[]) =>
  new Promise<UnlockerEvent[]>((resolve) => {
    const events: UnlockerEvent[] = [];
    const parent = createActor(
      createMachine({
        invoke: { id: 'decrypt', src: logic, input: { files } },
        on: {
          '*': {
            actions: ({ event }) => {
              events.push(event as UnlockerEvent);
              if (event.type === 'DECRYPTED' || event.type === 'FAILED') resolve(events);
            },
          },
        },
      }),
    );
    parent.start();
  });

describe('the unlocker pipeline', () => {
  it('a zip of messages (stored and deflated, in folders) decrypts entry by entry, byte-identical, with bytes read and decrypted', async () => {
    const key = await generateProtectedKey('pipeline passphrase', 'me@example.com');
    await unlockSessionKey(key.privateKey, 'pipeline passphrase');
    const first = new Uint8Array(200_000).map((_, i) => (i * 13) % 256);
    const second = new TextEncoder().encode('the second file');
    const plainEntry = Buffer.from('kept as it is');
    const first64 = await wholeMessage(key.publicKey, first);
    const zip = await zipOf([
      { name: 'Docs/first.bin.pgp', data: first64, compress: false },
      { name: 'second.txt.pgp', data: await wholeMessage(key.publicKey, second), compress: true },
      { name: 'Docs/readme.txt', data: plainEntry, compress: true },
    ]);
    const archive = new File([new Uint8Array(zip)], 'download.zip');

    const sources = await listSources([archive]);
    expect(sources.map((s) => [s.name, s.encrypted])).toEqual([
      ['Docs_first.bin', true],
      ['second.txt', true],
      ['Docs_readme.txt', false],
    ]);
    expect(sources[0]?.size).toBe(first64.length);

    const saved = new Map<string, Buffer>();
    const pipeline = unlockerPipeline({
      decrypt: decryptMessageStream,
      save: async (name, data) => void saved.set(name, Buffer.from(await data.arrayBuffer())),
      progressEveryMs: 0,
    });
    const unpacked = await createActor(pipeline.unpack, { input: { files: [archive] } }).start();
    await new Promise<void>((resolve) => unpacked.subscribe({ complete: resolve }));
    const events = await runDecrypt(pipeline.decrypt, [archive]);

    expect(events.at(-1)).toEqual({ type: 'DECRYPTED' });
    expect(saved.get('Docs_first.bin')?.equals(Buffer.from(first))).toBe(true);
    expect(saved.get('second.txt')?.toString()).toBe('the second file');
    expect(saved.get('Docs_readme.txt')?.equals(plainEntry)).toBe(true);
    const lastOfFirst = events.filter((e) => e.type === 'PROGRESS' && e.index === 0).at(-1);
    expect(lastOfFirst).toMatchObject({ state: 'saved', read: first64.length, decrypted: first.length });
    // progress rose in steps as the bytes went through, not in one jump
    const readSteps = events.filter((e) => e.type === 'PROGRESS' && e.index === 0 && e.read !== undefined && e.read > 0);
    expect(readSteps.length).toBeGreaterThan(2);
  }, 30_000);

  it('a message for another key is marked failed and the next one still opens', async () => {
    const mine = await generateProtectedKey('mine passphrase', 'me@example.com');
    const other = await generateProtectedKey('other passphrase', 'other@example.com');
    await unlockSessionKey(mine.privateKey, 'mine passphrase');
    const files = [
      new File([new Uint8Array(await wholeMessage(other.publicKey, new TextEncoder().encode('not mine')))], 'foreign.txt.pgp'),
      new File([new Uint8Array(await wholeMessage(mine.publicKey, new TextEncoder().encode('mine')))], 'mine.txt.pgp'),
    ];
    const saved: string[] = [];
    const pipeline = unlockerPipeline({ decrypt: decryptMessageStream, save: async (name) => void saved.push(name) });
    const unpacked = createActor(pipeline.unpack, { input: { files } }).start();
    await new Promise<void>((resolve) => unpacked.subscribe({ complete: resolve }));
    const events = await runDecrypt(pipeline.decrypt, files);
    expect(saved).toEqual(['mine.txt']);
    expect(events.find((e) => e.type === 'PROGRESS' && e.state === 'failed')).toMatchObject({ index: 0, error: { code: 'NOT_FOR_THIS_KEY' } });
    expect(events.at(-1)).toEqual({ type: 'DECRYPTED' });
  }, 30_000);
});
