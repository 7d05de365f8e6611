import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { ApiError } from '../../api/errors';
import { fetchUploadMachine, NOTHING_UPLOADED, receiptVerdict, UPLOADS_UNFINISHED, type FinishedFile } from './fetch-upload.machine';
import type { LocalFile, Receipt } from './receipt';
import type { LinkSummary, SubmittedFile } from './secure-fetch.api';

const LINK: LinkSummary = {
  note: 'Send the contract',
  includeMetadata: false,
  certificated: true,
  maxSize: 10 * 1024 * 1024,
  status: 'pending',
  expiresAt: null,
};
const HASHES = { md5: 'a'.repeat(32), sha1: 'b'.repeat(40), sha3_512: 'c'.repeat(128) };
const finished = (name: string, size = 3): FinishedFile => ({
  displayName: name,
  file: { id: `up-${name}`, name, nodeId: `up-${name}`, uploadId: `up-${name}`, mime: 'text/plain', size },
});
const receiptFor = (files: FinishedFile[]): Receipt => ({
  items: files.map((f) => ({ name: f.file.name, size: f.file.size, ...HASHES })),
  receivedAt: '2026-05-01T12:00:00.000Z',
  signature: 'sig',
});

const start = (
  options: {
    link?: LinkSummary | Error;
    submit?: (files: SubmittedFile[], metadata: unknown) => Promise<Receipt>;
    local?: (files: FinishedFile[]) => Promise<LocalFile[]>;
    signed?: () => Promise<boolean>;
  } = {},
) => {
  const submitted: Array<{ files: SubmittedFile[]; metadata: unknown }> = [];
  const actor = createActor(
    fetchUploadMachine.provide({
      actors: {
        loadLink: fromPromise(async () => {
          if (options.link instanceof Error) throw options.link;
          return options.link ?? LINK;
        }),
        submit: fromPromise(async ({ input }) => {
          submitted.push({ files: input.files, metadata: input.metadata });
          return options.submit ? options.submit(input.files, input.metadata) : receiptFor(input.files.map((file) => ({ file, displayName: file.name })));
        }),
        localHashes: fromPromise(async ({ input }) =>
          options.local ? options.local(input.files) : input.files.map((f) => ({ name: f.file.name, size: f.file.size, hashes: HASHES })),
        ),
        receiptSignature: fromPromise(async () => (options.signed ? options.signed() : true)),
      },
    }),
    { input: { linkId: 'L1' } },
  ).start();
  return { actor, submitted };
};

describe('Secure Fetch upload page machine', () => {
  it('shows the server reason when the link is missing, invalid or used, and nothing else', async () => {
    const { actor } = start({ link: new ApiError('SECURE_FETCH_USED', 'This Secure Fetch link has already been used', null, 410) });
    const snap = await waitFor(actor, (s) => s.matches('unavailable'));
    expect(snap.context.unavailable).toEqual({ code: 'SECURE_FETCH_USED', message: 'This Secure Fetch link has already been used', data: null });
    expect(snap.status).toBe('done');
    const uploaded = start({ link: { ...LINK, status: 'uploaded' } });
    expect((await waitFor(uploaded.actor, (s) => s.matches('unavailable'))).context.unavailable?.code).toBe('SECURE_FETCH_USED');
  });

  it('refuses to submit before a file is uploaded or while uploads run', async () => {
    const { actor, submitted } = start();
    await waitFor(actor, (s) => s.matches('collecting'));
    actor.send({ type: 'SUBMIT', files: [], unfinished: 0 });
    expect(actor.getSnapshot().context.error?.code).toBe(NOTHING_UPLOADED);
    actor.send({ type: 'SUBMIT', files: [finished('a.txt')], unfinished: 1 });
    expect(actor.getSnapshot().context.error?.code).toBe(UPLOADS_UNFINISHED);
    expect(actor.getSnapshot().value).toBe('collecting');
    expect(submitted).toEqual([]);
  });

  it('asks for the metadata the link wants, under its fields, and sends it parsed', async () => {
    const { actor, submitted } = start({ link: { ...LINK, includeMetadata: true } });
    await waitFor(actor, (s) => s.matches('collecting'));
    actor.send({ type: 'SUBMIT', files: [finished('a.txt')], unfinished: 0 });
    expect(actor.getSnapshot().value).toBe('collecting');
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ contactEmail: 'validation.required', copyrightTypeId: 'secureFetch.validation.copyrightType' });
    actor.send({ type: 'METADATA.CHANGE', field: 'contactEmail', value: 'ana@example.org' });
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ copyrightTypeId: 'secureFetch.validation.copyrightType' });
    actor.send({ type: 'METADATA.CHANGE', field: 'copyrightTypeId', value: '2' });
    actor.send({ type: 'METADATA.CHANGE', field: 'author', value: 'Ana' });
    actor.send({ type: 'SUBMIT', files: [finished('a.txt')], unfinished: 0 });
    await waitFor(actor, (s) => s.matches('sent'));
    expect(submitted).toEqual([{ files: [finished('a.txt').file], metadata: { contactEmail: 'ana@example.org', copyrightTypeId: 2, author: 'Ana' } }]);
  });

  it('sends the files, compares the receipt with the browser hashes, and ends sent', async () => {
    const { actor, submitted } = start();
    await waitFor(actor, (s) => s.matches('collecting'));
    actor.send({ type: 'SUBMIT', files: [finished('a.txt'), finished('b.txt', 5)], unfinished: 0 });
    const snap = await waitFor(actor, (s) => s.matches('sent'));
    expect(submitted[0]!.metadata).toBeUndefined();
    expect(snap.context.checks).toEqual([
      { name: 'a.txt', status: 'match' },
      { name: 'b.txt', status: 'match' },
    ]);
    expect(snap.context.signature).toBe('valid');
    expect(receiptVerdict(snap.context.checks, snap.context.signature)).toBe('match');
    expect(snap.context.receipt?.signature).toBe('sig');
  });

  it('says so when the receipt does not carry what the browser computed', async () => {
    const { actor } = start({
      local: async (files) => files.map((f) => ({ name: f.file.name, size: f.file.size, hashes: { ...HASHES, md5: 'd'.repeat(32) } })),
    });
    await waitFor(actor, (s) => s.matches('collecting'));
    actor.send({ type: 'SUBMIT', files: [finished('a.txt')], unfinished: 0 });
    const snap = await waitFor(actor, (s) => s.matches('sent'));
    expect(snap.context.checks).toEqual([{ name: 'a.txt', status: 'differs', hashes: ['md5'] }]);
    expect(receiptVerdict(snap.context.checks, snap.context.signature)).toBe('mismatch');
    const unchecked = start({ local: async () => Promise.reject(new Error('worker gone')) });
    await waitFor(unchecked.actor, (s) => s.matches('collecting'));
    unchecked.actor.send({ type: 'SUBMIT', files: [finished('a.txt')], unfinished: 0 });
    const uncheckedSnap = await waitFor(unchecked.actor, (s) => s.matches('sent'));
    expect(receiptVerdict(uncheckedSnap.context.checks, uncheckedSnap.context.signature)).toBe('unchecked');
  });

  it('a receipt whose signature is not the server key is not trusted, however its hashes read', async () => {
    const forged = start({ signed: async () => false });
    await waitFor(forged.actor, (s) => s.matches('collecting'));
    forged.actor.send({ type: 'SUBMIT', files: [finished('a.txt')], unfinished: 0 });
    const snap = await waitFor(forged.actor, (s) => s.matches('sent'));
    expect(snap.context.checks).toEqual([{ name: 'a.txt', status: 'match' }]);
    expect(snap.context.signature).toBe('invalid');
    expect(receiptVerdict(snap.context.checks, snap.context.signature)).toBe('mismatch');
    const noKey = start({ signed: async () => Promise.reject(new Error('no key')) });
    await waitFor(noKey.actor, (s) => s.matches('collecting'));
    noKey.actor.send({ type: 'SUBMIT', files: [finished('a.txt')], unfinished: 0 });
    const unsigned = await waitFor(noKey.actor, (s) => s.matches('sent'));
    expect(receiptVerdict(unsigned.context.checks, unsigned.context.signature)).toBe('unchecked');
  });

  it('a link used meanwhile ends the page; another refusal lets the sender try again', async () => {
    const gone = start({ submit: async () => Promise.reject(new ApiError('SECURE_FETCH_INVALID', 'This Secure Fetch link is no longer valid', null, 410)) });
    await waitFor(gone.actor, (s) => s.matches('collecting'));
    gone.actor.send({ type: 'SUBMIT', files: [finished('a.txt')], unfinished: 0 });
    expect((await waitFor(gone.actor, (s) => s.matches('unavailable'))).context.unavailable?.code).toBe('SECURE_FETCH_INVALID');

    let calls = 0;
    const flaky = start({
      submit: async (files) => {
        calls += 1;
        if (calls === 1) throw new ApiError('TIMEOUT', 'Timeout exceeded');
        return receiptFor(files.map((file) => ({ file, displayName: file.name })));
      },
    });
    await waitFor(flaky.actor, (s) => s.matches('collecting'));
    flaky.actor.send({ type: 'SUBMIT', files: [finished('a.txt')], unfinished: 0 });
    const failed = await waitFor(flaky.actor, (s) => s.matches('collecting') && s.context.error !== null);
    expect(failed.context.error?.code).toBe('TIMEOUT');
    flaky.actor.send({ type: 'SUBMIT', files: [finished('a.txt')], unfinished: 0 });
    await waitFor(flaky.actor, (s) => s.matches('sent'));
    expect(calls).toBe(2);
  });

  it('clears "add at least one file" once a file is added, and lists the files refused when chosen until dismissed', async () => {
    const { actor } = start();
    await waitFor(actor, (s) => s.matches('collecting'));
    actor.send({ type: 'SUBMIT', files: [], unfinished: 0 });
    expect(actor.getSnapshot().context.error?.code).toBe(NOTHING_UPLOADED);
    const big = { name: 'big.bin', size: 21_000_000, error: { code: 'SECURE_FETCH_TOO_LARGE', message: 'too big', data: { maxSize: 10 * 1024 * 1024 } } };
    // Only refused files: nothing was added, the problem stands.
    actor.send({ type: 'FILES.CHOSEN', added: 0, refused: [big] });
    expect(actor.getSnapshot().context).toMatchObject({ refused: [big], error: { code: NOTHING_UPLOADED } });
    actor.send({ type: 'FILES.CHOSEN', added: 2, refused: [] });
    expect(actor.getSnapshot().context).toMatchObject({ refused: [], error: null });
    actor.send({ type: 'FILES.CHOSEN', added: 1, refused: [big] });
    actor.send({ type: 'REFUSED.DISMISS' });
    expect(actor.getSnapshot().context.refused).toEqual([]);
    // Another problem is not cleared by adding files.
    actor.send({ type: 'SUBMIT', files: [finished('a')], unfinished: 1 });
    actor.send({ type: 'FILES.CHOSEN', added: 1, refused: [] });
    expect(actor.getSnapshot().context.error?.code).toBe(UPLOADS_UNFINISHED);
  });
});
