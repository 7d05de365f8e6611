import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { ApiError } from '../../api/errors';
import type { SendAnswer } from './package-send.machine';
import { packageSendMachine } from './package-send.machine';

const sentPackage: SendAnswer = {
  id: 'p1',
  name: 'Lease 2026',
  message: null,
  status: 'awaiting_signatures',
  createdAt: null,
  modifiedAt: null,
  sentAt: '2026-11-28T09:00:00.000Z',
  completedAt: null,
  documentSha256: null,
  entriesCount: 1,
  signersCount: 2,
  finishedCount: 0,
};

const start = (impl: (input: { packageId: string; password: string | undefined }) => Promise<SendAnswer>) => {
  const calls: { packageId: string; password: string | undefined }[] = [];
  const actor = createActor(packageSendMachine.provide({ actors: { send: fromPromise(async ({ input }) => (calls.push(input), impl(input))) } }), {
    input: { packageId: 'p1' },
  }).start();
  return { actor, calls };
};

describe('sending a package', () => {
  it('asks before sending; cancelling sends nothing', () => {
    const { actor, calls } = start(async () => sentPackage);
    actor.send({ type: 'SEND', password: 'Sign-here-2026' });
    expect(actor.getSnapshot().value).toBe('confirming');
    actor.send({ type: 'CANCEL' });
    expect(actor.getSnapshot().value).toBe('review');
    expect(calls).toEqual([]);
  });

  it("sends the owner's password, and shows none afterwards", async () => {
    const { actor, calls } = start(async () => sentPackage);
    actor.send({ type: 'SEND', password: 'Sign-here-2026' });
    actor.send({ type: 'CONFIRM' });
    const done = await waitFor(actor, (s) => s.matches('sent'));
    expect(calls).toEqual([{ packageId: 'p1', password: 'Sign-here-2026' }]);
    expect(done.context.sent?.status).toBe('awaiting_signatures');
    expect(done.context.madePassword).toBeNull();
  });

  it('without a password the one the server made is shown once', async () => {
    const { actor, calls } = start(async () => ({ ...sentPackage, password: 'made-by-server' }));
    actor.send({ type: 'SEND', password: '' });
    actor.send({ type: 'CONFIRM' });
    const done = await waitFor(actor, (s) => s.matches('sent'));
    expect(calls[0]?.password).toBeUndefined();
    expect(done.context.madePassword).toBe('made-by-server');
    expect(done.context.sent).not.toHaveProperty('password');
  });

  it('shows a refusal and sends again on retry', async () => {
    let refuse = true;
    const { actor, calls } = start(async () => {
      if (refuse) throw new ApiError('ESIGN_INCOMPLETE', 'Add a document, signers and a field for each signer before sending', null, 409);
      return sentPackage;
    });
    actor.send({ type: 'SEND' });
    actor.send({ type: 'CONFIRM' });
    const failed = await waitFor(actor, (s) => s.matches('failed'));
    expect(failed.context.error).toMatchObject({ code: 'ESIGN_INCOMPLETE' });
    refuse = false;
    actor.send({ type: 'RETRY' });
    const done = await waitFor(actor, (s) => s.matches('sent'));
    expect(done.context.error).toBeNull();
    expect(calls).toHaveLength(2);
  });
});
