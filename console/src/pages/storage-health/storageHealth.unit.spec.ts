import { describe, expect, it } from 'vitest';
import { fetchBlobHealth, formatBytes, scrubLevel, shardLevel } from './storageHealth';

describe('storage health', () => {
  it('formats sizes in binary units', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(1023)).toBe('1023 B');
    expect(formatBytes(1024 * 1024)).toBe('1.0 MiB');
    expect(formatBytes(5.5 * 1024 ** 3)).toBe('5.5 GiB');
  });

  it('flags shards running out of disk', () => {
    expect(shardLevel({ shard: 's', chunks: 1, bytes: 100, freeBytes: null })).toBe('ok');
    expect(shardLevel({ shard: 's', chunks: 1, bytes: 1024 ** 3, freeBytes: 100 * 1024 ** 3 })).toBe('ok');
    expect(shardLevel({ shard: 's', chunks: 1, bytes: 100 * 1024 ** 3, freeBytes: 5 * 1024 ** 3 })).toBe('warning');
    expect(shardLevel({ shard: 's', chunks: 1, bytes: 100 * 1024 ** 3, freeBytes: 512 * 1024 ** 2 })).toBe('error');
  });

  it('rates the last scrub', () => {
    const report = { startedAt: '', finishedAt: '', checked: 10, repaired: 0, lost: 0, lostChunks: [] };
    expect(scrubLevel(null)).toBe('warning');
    expect(scrubLevel(report)).toBe('ok');
    expect(scrubLevel({ ...report, repaired: 2 })).toBe('warning');
    expect(scrubLevel({ ...report, lost: 1, lostChunks: ['bafkrei'] })).toBe('error');
  });

  it('reads the health call with the console headers and surfaces its errors', async () => {
    const seen: { url: string; init?: RequestInit }[] = [];
    const body = { adapter: 'local', replicas: 2, nodeId: 'node-1', shards: [], lastScrub: null };
    const ok = await fetchBlobHealth(async (url, init) => {
      seen.push({ url, init });
      return new Response(JSON.stringify(body), { status: 200 });
    });
    expect(ok).toEqual(body);
    expect(seen[0]!.url).toBe('/api/admin/blobs/health');
    expect(new Headers(seen[0]!.init?.headers).get('X-Requested-With')).toBe('XMLHttpRequest');
    await expect(fetchBlobHealth(async () => new Response(JSON.stringify({ code: 'FORBIDDEN', message: 'No', data: null }), { status: 403 }))).rejects.toMatchObject({
      status: 403,
      code: 'FORBIDDEN',
    });
  });
});
