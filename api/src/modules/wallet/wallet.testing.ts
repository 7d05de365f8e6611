import type { HttpClient, TestApp } from '../../testing/harness';

/** Waits (polling every 100 ms, `tries` times) until `read` gives a value `done` accepts. */
export const until = async <T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, tries = 100): Promise<T> => {
  for (let i = 0; i < tries; i++) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
};

/** A block interval passes on the app's clock; waits until the miner (checking every second) mined. */
export const nextBlockOf =
  (app: () => TestApp, tries = 100) =>
  async (http: HttpClient) => {
    const before = (await http.get('/api/wallet/v1/blockchaininfo')).body.blocks as number;
    app().clock.advance(10_000);
    await until(
      () => http.get('/api/wallet/v1/blockchaininfo'),
      (r) => r.body.blocks > before,
      'a block',
      tries,
    );
  };
