import { assign, fromPromise, setup } from 'xstate';
import { z } from 'zod';
import { toApiError, type NormalisedError } from '../../api/errors';
import type { SlackLink } from './slack.api';

/** The link Slack's `/axel` command answers: `/slack-auth/{slackUserId}?expires=…&signature=…`. */
const linkSchema = z.object({
  slackUserId: z.string().regex(/^[UW][A-Z0-9]{2,20}$/),
  expires: z.coerce.number().int().positive(),
  signature: z.string().min(20).max(100),
});

/** The link's parts, or null when it cannot be one the server signed (cut short, edited). */
export const parseSlackLink = (slackUserId: string | undefined, search: URLSearchParams): SlackLink | null => {
  const parsed = linkSchema.safeParse({ slackUserId, expires: search.get('expires') ?? '', signature: search.get('signature') ?? '' });
  return parsed.success ? parsed.data : null;
};

/** Answers that mean the link itself is bad: the user needs a new one from Slack. */
const LINK_REFUSALS = new Set(['SSO_STATE_INVALID', 'VALIDATION_FAILED']);

export interface SlackLinkContext {
  link: SlackLink | null;
  error: NormalisedError | null;
}

/**
 * Connecting Slack: a link that is malformed or already expired is refused at once (invalid);
 * otherwise the signed-in user confirms (ready -> linking) and the server checks the signature:
 * linked, invalid (the link is refused) or ready again with the error (anything else, retried).
 */
export const slackLinkMachine = setup({
  types: {
    context: {} as SlackLinkContext,
    events: {} as { type: 'CONNECT' },
    input: {} as { link: SlackLink | null; now: number },
  },
  actors: {
    link: fromPromise<unknown, SlackLink>(async () => {
      throw new Error('link actor not provided');
    }),
  },
}).createMachine({
  id: 'slackLink',
  // a link whose time is past on this device is refused without a round trip (the server decides the rest)
  context: ({ input }) => ({ link: input.link && input.link.expires > input.now ? input.link : null, error: null }),
  initial: 'checking',
  states: {
    checking: {
      always: [{ guard: ({ context }) => context.link === null, target: 'invalid' }, { target: 'ready' }],
    },
    ready: {
      on: { CONNECT: { target: 'linking', actions: assign({ error: null }) } },
    },
    linking: {
      invoke: {
        src: 'link',
        input: ({ context }) => context.link as SlackLink,
        onDone: 'linked',
        onError: [
          {
            guard: ({ event }) => LINK_REFUSALS.has(toApiError(event.error).code),
            target: 'invalid',
            actions: assign(({ event }) => ({ error: toApiError(event.error).toJSON() })),
          },
          { target: 'ready', actions: assign(({ event }) => ({ error: toApiError(event.error).toJSON() })) },
        ],
      },
    },
    linked: { type: 'final' },
    invalid: { type: 'final' },
  },
});
