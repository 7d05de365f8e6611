import { describe, expect, it, vi } from 'vitest';
import { createHostBrandingStore, type HostBranding } from './hostBranding';

const acme: HostBranding = { companyName: 'Acme Legal', logoUrl: '/api/teams/t1/branding/logo?v=1', mainUrl: 'https://app.example.com' };

describe("the custom host's branding", () => {
  it('is asked once however many times the app wants it, and is what the server answered', async () => {
    const store = createHostBrandingStore();
    const ask = vi.fn(async () => acme);
    const seen: string[] = [];
    store.subscribe(() => seen.push(store.get().status));
    expect(store.get()).toEqual({ status: 'loading' });
    await Promise.all([store.load(ask), store.load(ask)]);
    await store.load(ask);
    expect(ask).toHaveBeenCalledTimes(1);
    expect(store.get()).toEqual({ status: 'ready', branding: acme });
    expect(seen).toEqual(['ready']);
  });

  it('is none off a custom host (404) or when the question fails, so the app behaves as on the main host', async () => {
    const store = createHostBrandingStore();
    await store.load(async () => {
      throw Object.assign(new Error('Not a custom host'), { status: 404 });
    });
    expect(store.get()).toEqual({ status: 'ready', branding: null });
  });
});
