import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { ApiError } from '../../api/errors';
import type { SlackLink } from './slack.api';
import { parseSlackLink, slackLinkMachine } from './slack-link.machine';

const NOW = 1_800_000_000_000;
const link: SlackLink = { slackUserId: 'U024BE7LH', expires: NOW + 60_000, signature: 'a'.repeat(43) };

const start = (input: { link: SlackLink | null; now?: number }, answer: () => Promise<unknown> = async () => ({})) => {
  const sent: SlackLink[] = [];
  const actor = createActor(
    slackLinkMachine.provide({
      actors: {
        link: fromPromise<unknown, SlackLink>(({ input: l }) => {
          sent.push(l);
          return answer();
        }),
      },
    }),
    { input: { link: input.link, now: input.now ?? NOW } },
  ).start();
  return { actor, sent };
};

describe('the Slack link page', () => {
  it('reads the signed link from the address, and refuses one cut short or edited', () => {
    const search = new URLSearchParams({ expires: String(link.expires), signature: link.signature });
    expect(parseSlackLink('U024BE7LH', search)).toEqual(link);
    expect(parseSlackLink('U024BE7LH', new URLSearchParams({ expires: String(link.expires) }))).toBeNull();
    expect(parseSlackLink('not-a-slack-user', search)).toBeNull();
    expect(parseSlackLink('U024BE7LH', new URLSearchParams({ expires: 'soon', signature: link.signature }))).toBeNull();
  });

  it('connects only when the signed-in user confirms', async () => {
    const { actor, sent } = start({ link });
    expect(actor.getSnapshot().value).toBe('ready');
    expect(sent).toEqual([]);
    actor.send({ type: 'CONNECT' });
    await waitFor(actor, (s) => s.matches('linked'));
    expect(sent).toEqual([link]);
  });

  it('says at once that a malformed or expired link is no good, without asking the server', () => {
    expect(start({ link: null }).actor.getSnapshot().value).toBe('invalid');
    const expired = start({ link, now: link.expires });
    expect(expired.actor.getSnapshot().value).toBe('invalid');
    expect(expired.sent).toEqual([]);
  });

  it("ends invalid when the server refuses the link's signature; other failures can be retried", async () => {
    const refused = start({ link }, () => Promise.reject(new ApiError('SSO_STATE_INVALID', 'expired', null, 400)));
    refused.actor.send({ type: 'CONNECT' });
    await waitFor(refused.actor, (s) => s.status === 'done');
    expect(refused.actor.getSnapshot().value).toBe('invalid');

    const down = start({ link }, () => Promise.reject(new ApiError('INTEGRATION_NOT_CONFIGURED', 'not configured', null, 503)));
    down.actor.send({ type: 'CONNECT' });
    await waitFor(down.actor, (s) => s.matches('ready') && s.context.error !== null);
    expect(down.actor.getSnapshot().context.error?.code).toBe('INTEGRATION_NOT_CONFIGURED');
  });
});
