import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testing/harness';
import { LINK_FAILURE_WINDOW_MS, LINK_FAILURES_PER_WINDOW } from './share-access.failures';
import { SHARE_PASSWORD, shareAccessHelpers } from './share-access.testing';

/* Two API processes behind one address, on one database: wrong share passwords count on both. */

let a: TestApp;
let b: TestApp;
beforeAll(async () => {
  const env = { TRUST_PROXY: 'true', DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'axel-share-failures-')) };
  a = await startTestApp({ env });
  b = await startTestApp({ env, database: a.db, roles: ['api'] });
});
afterAll(async () => {
  await b?.stop();
  await a?.stop();
});
const onA = shareAccessHelpers(() => a);
const onB = shareAccessHelpers(() => b);
const from = (ip: string) => ({ 'x-forwarded-for': ip });

describe('wrong share passwords across API processes', () => {
  it('are counted once for the link, whichever process took them', async () => {
    const o = await onA.owner();
    const s = await o.share({ itemIds: [await o.file('secret.txt', Buffer.from('s'))], password: SHARE_PASSWORD });
    const link = `/api/share-links/${s.shareLinkId}`;

    // half of the window's wrong passwords on each process, two per client address
    for (let i = 0; i < LINK_FAILURES_PER_WINDOW; i++) {
      const side = i % 2 === 0 ? onA : onB;
      const res = await side.visitor().call(link, { ...side.password(`wrong-${i}`), ...from(`192.0.2.${Math.floor(i / 2) + 1}`) });
      expect(res.body.code).toBe(5403);
    }
    // either process now slows the link down and refuses the next wrong one
    for (const side of [onA, onB]) {
      const refused = await side.visitor().call(link, { ...side.password('still-wrong'), ...from('198.51.100.2') });
      expect(refused.status).toBe(429);
      expect(refused.body.code).toBe('RATE_LIMITED');
    }
    // and the right password still gets in on both
    for (const side of [onA, onB]) expect((await side.visitor().call(link, { ...side.password(SHARE_PASSWORD), ...from('203.0.113.9') })).status).toBe(200);
    // the window ends for both processes
    a.clock.advance(LINK_FAILURE_WINDOW_MS + 1);
    b.clock.advance(LINK_FAILURE_WINDOW_MS + 1);
    for (const side of [onA, onB]) expect((await side.visitor().call(link, { ...side.password('wrong-again'), ...from('198.51.100.3') })).body.code).toBe(5403);
  }, 300_000);
});
