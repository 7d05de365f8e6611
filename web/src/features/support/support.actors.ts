import { fromCallback } from 'xstate';
import type { SendInput, SupportEvent } from './support.machine';
import { contactOwner, sendSupport } from './support.api';

/** The dialog's sending actor for one user: support gets the multipart form, the team owner the `emails` call. */
export const supportActors = (userId: string, ownerId: string | null) => ({
  send: fromCallback<SupportEvent, SendInput>(({ sendBack, input }) => {
    const controller = new AbortController();
    const sending =
      input.to === 'owner' && ownerId
        ? contactOwner(userId, { receiverId: ownerId, subject: input.subject, text: input.text }).then(() => undefined)
        : sendSupport(userId, input, (fraction) => sendBack({ type: 'PROGRESS', fraction }), controller.signal);
    sending.then(
      () => sendBack({ type: 'SENT' }),
      (error: unknown) => {
        if (!controller.signal.aborted) sendBack({ type: 'FAILED', error });
      },
    );
    return () => controller.abort();
  }),
});
