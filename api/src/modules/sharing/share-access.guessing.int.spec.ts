import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../testing/harness';
import { SHARE_PASSWORD, shareAccessHelpers } from './share-access.testing';

/* Password guesses on a share link, from several client addresses (behind a trusted proxy). */

const t = useTestApp({ env: { TRUST_PROXY: 'true' } });
const { owner, visitor, password } = shareAccessHelpers(t);
const from = (ip: string) => ({ 'x-forwarded-for': ip });

describe('password guessing on a share link', () => {
  it('is counted per link and client, and a crowd of guessers cannot keep the right password out', async () => {
    const o = await owner();
    const doc = await o.file('secret.txt', Buffer.from('s'));
    const s = await o.share({ itemIds: [doc], password: SHARE_PASSWORD });
    const link = `/api/share-links/${s.shareLinkId}`;

    // one client: cut off after 60 calls a minute without a token; another client is not
    const guesser = visitor();
    const answers: number[] = [];
    for (let i = 0; i < 61; i++) answers.push((await guesser.call(link, from('198.51.100.1'))).status);
    expect(answers.slice(0, 60).every((status) => status === 403)).toBe(true);
    expect(answers[60]).toBe(429);
    expect((await visitor().call(link, from('198.51.100.2'))).body.code).toBe('SHARE_PROTECTED');

    // 60 wrong passwords from 30 addresses, a few at a time
    for (let i = 0; i < 60; i += 6) {
      const batch = Array.from({ length: 6 }, (_, k) =>
        visitor().call(link, { ...password(`wrong-${i + k}`), ...from(`192.0.2.${Math.floor((i + k) / 2) + 1}`) }),
      );
      for (const res of await Promise.all(batch)) expect(res.body.code).toBe(5403);
    }
    // the link has now seen 60 wrong passwords: another client's wrong guess is slowed and refused with 429
    const other = await visitor().call(link, { ...password('still-wrong'), ...from('198.51.100.2') });
    expect(other.status).toBe(429);
    expect(other.body.code).toBe('RATE_LIMITED');
    expect(Number(other.headers.get('retry-after'))).toBeGreaterThan(0);

    // a visitor with the right password gets in, from a fresh address and from the guesser's neighbour
    const rightful = visitor();
    const opened = await rightful.call(link, { ...password(SHARE_PASSWORD), ...from('203.0.113.9') });
    expect(opened.status, JSON.stringify(opened.body)).toBe(200);
    expect((await rightful.call(`${link}/entries/`, from('203.0.113.9'))).status).toBe(200);
    expect((await visitor().call(link, { ...password(SHARE_PASSWORD), ...from('198.51.100.2') })).status).toBe(200);
    // 15 minutes later the link is calm again: a wrong password is a plain 5403
    t().clock.advance(15 * 60_000 + 1);
    expect((await visitor().call(link, { ...password('wrong-again'), ...from('198.51.100.3') })).body.code).toBe(5403);
  }, 300_000);
});
