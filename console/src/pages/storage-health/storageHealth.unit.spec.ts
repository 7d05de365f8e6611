import { describe, expect, it } from 'vitest';
import { fetchBlobHealth, formatBytes, reasonMessage, scrubLevel, shardLevel, shardStatus } from './storageHealth';

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

  it('a shard whose folder is gone or was made again is a problem, whatever its free disk', () => {
    const shard = { shard: 'shard-2', chunks: 0, bytes: 0, freeBytes: 100 * 1024 ** 3 };
    expect(shardStatus({ ...shard, problem: null })).toBe('ok');
    expect(shardStatus({ ...shard, problem: 'folder missing' })).toBe('error');
  });

  it('a scrub that passed over a failing shard or could not repair chunks asks for attention', () => {
    const report = { startedAt: '', finishedAt: '', checked: 10, repaired: 0, lost: 0, lostChunks: [] };
    expect(scrubLevel({ ...report, failed: 0, shardFaults: [] })).toBe('ok');
    expect(scrubLevel({ ...report, failed: 3 })).toBe('warning');
    expect(scrubLevel({ ...report, shardFaults: [{ shard: 'shard-1', operation: 'repair', reason: 'EROFS' }] })).toBe('warning');
  });

  it('words each reason the store is degraded with its shard, detail and count', () => {
    expect(reasonMessage({ code: 'shard-fault', shard: 'shard-1', detail: 'put: EROFS', count: 4, at: null })).toEqual({
      key: 'reasons.shard-fault',
      values: { shard: 'shard-1', detail: 'put: EROFS', count: 4 },
    });
    expect(reasonMessage({ code: 'chunks-lost', shard: null, detail: null, count: 2, at: null }).values).toEqual({ shard: '', detail: '', count: 2 });
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
    await expect(
      fetchBlobHealth(async () => new Response(JSON.stringify({ code: 'FORBIDDEN', message: 'No', data: null }), { status: 403 })),
    ).rejects.toMatchObject({
      status: 403,
      code: 'FORBIDDEN',
    });
  });
});
