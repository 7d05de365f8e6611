import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config';

const key = (c: string) => c.repeat(64);

describe('configuration of the byte pipeline', () => {
  it('defaults to 4 local shards, 2 replicas, a generated master key', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ BLOB_SHARDS: 4, BLOB_REPLICAS: 2, MASTER_KEY_PREVIOUS: [], UPLOAD_EXPIRY_HOURS: 24 });
    expect(config.MASTER_KEY ?? null).toBeNull();
    expect(config.S3_ENDPOINT ?? null).toBeNull();
  });

  it('reads master keys being rotated away from', () => {
    expect(loadConfig({ MASTER_KEY: key('a'), MASTER_KEY_PREVIOUS: `${key('b')}, ${key('c')}` }).MASTER_KEY_PREVIOUS).toEqual([key('b'), key('c')]);
  });

  it('stops the start naming the variable on a bad value', () => {
    expect(() => loadConfig({ MASTER_KEY: 'abc' })).toThrow(/MASTER_KEY/);
    expect(() => loadConfig({ MASTER_KEY_PREVIOUS: 'zz' })).toThrow(/MASTER_KEY_PREVIOUS/);
    expect(() => loadConfig({ BLOB_SHARDS: '0' })).toThrow(/BLOB_SHARDS/);
    expect(() => loadConfig({ BLOB_REPLICAS: 'two' })).toThrow(/BLOB_REPLICAS/);
    expect(() => loadConfig({ S3_ENDPOINT: 'http://minio:9000' })).toThrow(ConfigError);
    expect(() => loadConfig({ S3_ENDPOINT: 'http://minio:9000' })).toThrow(/S3_ACCESS_KEY_ID/);
    expect(loadConfig({ S3_ENDPOINT: 'http://minio:9000', S3_ACCESS_KEY_ID: 'a', S3_SECRET_ACCESS_KEY: 'b' }).S3_BUCKET).toBe('axel');
  });
});
