import { describe, expect, it, vi } from 'vitest';
import { createActor, fromCallback, fromPromise, waitFor } from 'xstate';
import { ApiError } from '../../api/errors';
import type { LinkView, Signature, SigningEntry, SigningPin } from './esign-receiver.api';
import { LOCKED_RETRY_MS, signingMachine, type FinishCall, type LinkCall, type SigningEvent } from './signing.machine';

const LINK = 'L'.repeat(22);
const view = (over: Partial<LinkView> = {}): LinkView => ({
  linkId: LINK,
  packageId: 'p1',
  name: 'Lease 2026',
  message: null,
  status: 'awaiting_signatures',
  signer: { id: 's1', name: 'Ada Signer', email: 'ada@example.com', color: 1, signedAt: null, finishedAt: null },
  signingState: 'ready',
  locked: false,
  documentReady: false,
  ...over,
});
const pin = (id: string, kind: SigningPin['kind'], over: Partial<SigningPin> = {}): SigningPin => ({
  id,
  entryId: 'e1',
  signerId: 's1',
  kind,
  page: 1,
  x: 0.1,
  y: 0.1,
  width: 0.2,
  height: 0.05,
  filled: false,
  mine: true,
  color: 1,
  ...over,
});
const entries = (pins: SigningPin[]): SigningEntry[] => [{ id: 'e1', name: 'lease.pdf', size: 100, pageCount: 1, contentUrl: '/c', pins }];
const refusal = (code: string, status: number) => new ApiError(code, code, null, status);
const TYPED: Signature = { type: 'typed', text: 'Ada Signer' };

/** The server's answers, one call at a time: each actor takes the next answer of its queue. */
const start = (options: {
  password?: string | null;
  views?: (LinkView | ApiError)[];
  entries?: (SigningEntry[] | ApiError)[];
  finish?: (LinkView | ApiError)[];
}) => {
  const calls: { finish: FinishCall[]; view: LinkCall[]; heartbeats: number } = { finish: [], view: [], heartbeats: 0 };
  const next = <T>(queue: (T | ApiError)[] | undefined) => {
    const answer = queue?.shift();
    if (answer === undefined) throw new Error('no more answers');
    if (answer instanceof ApiError) throw answer;
    return answer;
  };
  const machine = signingMachine.provide({
    actors: {
      loadView: fromPromise<LinkView, LinkCall>(async ({ input }) => {
        calls.view.push(input);
        if (input.password !== 'right-one') throw refusal('ESIGN_WRONG_PASSWORD', 403);
        return next(options.views);
      }),
      loadEntries: fromPromise<SigningEntry[], LinkCall>(async () => next(options.entries)),
      finish: fromPromise<LinkView, FinishCall>(async ({ input }) => {
        calls.finish.push(input);
        return next(options.finish);
      }),
      heartbeat: fromCallback<SigningEvent, LinkCall>(() => {
        calls.heartbeats++;
        return () => undefined;
      }),
    },
  });
  const actor = createActor(machine, { input: { linkId: LINK, password: options.password ?? null } });
  actor.start();
  return { actor, calls };
};

describe('a signer on their link', () => {
  it('asks the password; a wrong one says so and asks again; the right one opens the documents', async () => {
    const { actor, calls } = start({ views: [view()], entries: [entries([pin('a', 'signature')])] });
    expect(actor.getSnapshot().value).toBe('password');
    actor.send({ type: 'SUBMIT_PASSWORD', password: 'wrong' });
    await waitFor(actor, (s) => s.matches('password') && s.context.passwordError !== null);
    expect(actor.getSnapshot().context.passwordError).toMatchObject({ code: 'ESIGN_WRONG_PASSWORD' });
    actor.send({ type: 'SUBMIT_PASSWORD', password: 'right-one' });
    await waitFor(actor, (s) => s.matches('signing'));
    expect(actor.getSnapshot().context.passwordError).toBeNull();
    expect(calls.view.map((c) => c.password)).toEqual(['wrong', 'right-one']);
    expect(calls.heartbeats).toBe(1);
  });

  it('a remembered password opens at once', async () => {
    const { actor } = start({ password: 'right-one', views: [view()], entries: [entries([pin('a', 'signature')])] });
    await waitFor(actor, (s) => s.matches('signing'));
  });

  it('shows the waiting, already-signed and closed states without opening the documents', async () => {
    for (const [signingState, target] of [
      ['waiting', 'waiting'],
      ['finished', 'done'],
      ['closed', 'closed'],
    ] as const) {
      const { actor } = start({ password: 'right-one', views: [view({ signingState })], entries: [] });
      await waitFor(actor, (s) => s.matches(target));
    }
  });

  it('while another signer holds the documents it says so and tries again on its own', async () => {
    vi.useFakeTimers();
    try {
      const { actor } = start({
        password: 'right-one',
        views: [view({ locked: true })],
        entries: [refusal('ESIGN_LOCKED', 423), entries([pin('a', 'signature')])],
      });
      await vi.waitFor(() => expect(actor.getSnapshot().value).toBe('locked'));
      await vi.advanceTimersByTimeAsync(LOCKED_RETRY_MS);
      await vi.waitFor(() => expect(actor.getSnapshot().value).toBe('signing'));
    } finally {
      vi.useRealTimers();
    }
  });

  it('Finish waits for every own field; a signature field needs the adopted signature; finishing sends it', async () => {
    const { actor, calls } = start({
      password: 'right-one',
      views: [view()],
      entries: [entries([pin('sig', 'signature'), pin('ini', 'initials'), pin('day', 'date'), pin('theirs', 'signature', { mine: false, signerId: 's2' })])],
      finish: [view({ signingState: 'finished' })],
    });
    await waitFor(actor, (s) => s.matches('signing'));
    // a signature field is not filled by a click alone
    actor.send({ type: 'FILL', pinId: 'sig' });
    actor.send({ type: 'FILL', pinId: 'day' });
    expect(actor.getSnapshot().context.filled).toEqual(['day']);
    actor.send({ type: 'FINISH' });
    expect(actor.getSnapshot().value).toBe('signing');
    // another signer's field is not the signer's to fill
    actor.send({ type: 'ADOPT', signature: TYPED, pinId: 'theirs' });
    expect(actor.getSnapshot().context.signature).toBeNull();
    actor.send({ type: 'ADOPT', signature: TYPED, pinId: 'sig' });
    actor.send({ type: 'FILL', pinId: 'ini' });
    expect(actor.getSnapshot().context.filled.sort()).toEqual(['day', 'ini', 'sig']);
    actor.send({ type: 'FINISH' });
    await waitFor(actor, (s) => s.matches('done'));
    expect(calls.finish).toEqual([{ linkId: LINK, password: 'right-one', signature: TYPED }]);
  });

  it('a new signature empties the fields the old one filled', async () => {
    const { actor } = start({ password: 'right-one', views: [view()], entries: [entries([pin('sig', 'signature'), pin('day', 'date')])] });
    await waitFor(actor, (s) => s.matches('signing'));
    actor.send({ type: 'ADOPT', signature: TYPED, pinId: 'sig' });
    actor.send({ type: 'FILL', pinId: 'day' });
    actor.send({ type: 'CLEAR_SIGNATURE' });
    expect(actor.getSnapshot().context).toMatchObject({ signature: null, filled: ['day'] });
  });

  it('fields the server already has filled (signed before, not finished) let the signer finish at once', async () => {
    const { actor, calls } = start({
      password: 'right-one',
      views: [view({ signingState: 'signed' })],
      entries: [entries([pin('sig', 'signature', { filled: true })])],
      finish: [view({ signingState: 'finished', documentReady: true, status: 'completed' })],
    });
    await waitFor(actor, (s) => s.matches('signing'));
    actor.send({ type: 'FINISH' });
    await waitFor(actor, (s) => s.matches('done'));
    expect(calls.finish[0]?.signature).toBeNull();
    expect(actor.getSnapshot().context.view?.documentReady).toBe(true);
  });

  it('a finish refused meanwhile shows the reason and keeps the fields; a lost lease goes back to waiting for it', async () => {
    const { actor } = start({
      password: 'right-one',
      views: [view()],
      entries: [entries([pin('day', 'date')])],
      finish: [refusal('NETWORK_ERROR', 0)],
    });
    await waitFor(actor, (s) => s.matches('signing'));
    actor.send({ type: 'FILL', pinId: 'day' });
    actor.send({ type: 'FINISH' });
    await waitFor(actor, (s) => s.matches('signing') && s.context.error !== null);
    expect(actor.getSnapshot().context.filled).toEqual(['day']);
    actor.send({ type: 'LEASE_LOST', error: { code: 'ESIGN_LOCKED', message: 'locked', data: null } });
    expect(actor.getSnapshot().value).toBe('locked');
  });

  it('done but not yet sealed: checking again shows the download once completed', async () => {
    const { actor } = start({ password: 'right-one', views: [view({ signingState: 'finished' }), view({ signingState: 'finished', documentReady: true })] });
    await waitFor(actor, (s) => s.matches('done'));
    expect(actor.getSnapshot().context.view?.documentReady).toBe(false);
    actor.send({ type: 'RETRY' });
    await waitFor(actor, (s) => s.matches('done') && s.context.view?.documentReady === true);
  });
});
