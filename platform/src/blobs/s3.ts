import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { partsOf, type BlobBytes, type BlobStore } from './blobstore';
import { isChunkCid } from './cid';

export interface S3BlobStoreOptions {
  readonly endpoint: string;
  readonly bucket: string;
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  readonly region?: string;
  /** Key prefix inside the bucket. */
  readonly prefix?: string;
}

const isMissing = (error: unknown) => {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NoSuchKey' || e.name === 'NotFound' || e.$metadata?.httpStatusCode === 404;
};

/**
 * An S3-compatible object store (MinIO in the compose file). Path-style addressing works with
 * every S3-compatible server; checksums only where the protocol requires them, because the SDK's
 * default streaming checksum framing is stored verbatim by some servers.
 */
export class S3BlobStore implements BlobStore {
  readonly client: S3Client;
  readonly name: string;
  private readonly prefix: string;

  constructor(private readonly options: S3BlobStoreOptions) {
    this.client = new S3Client({
      endpoint: options.endpoint,
      region: options.region ?? 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey },
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
    this.prefix = options.prefix ?? 'chunks/';
    this.name = `s3:${options.bucket}`;
  }

  private key(cid: string) {
    if (!isChunkCid(cid)) throw new Error('not a chunk id');
    return `${this.prefix}${cid}`;
  }

  async put(cid: string, blob: BlobBytes): Promise<void> {
    if (await this.has(cid)) return;
    const parts = partsOf(blob);
    const bytes = parts.length === 1 ? parts[0]! : Buffer.concat(parts);
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.options.bucket,
        Key: this.key(cid),
        Body: bytes,
        ContentLength: bytes.byteLength,
        ContentType: 'application/octet-stream',
      }),
    );
  }

  async get(cid: string): Promise<Buffer | null> {
    try {
      const res = await this.client.send(new GetObjectCommand({ Bucket: this.options.bucket, Key: this.key(cid) }));
      if (!res.Body) return Buffer.alloc(0);
      return Buffer.from(await res.Body.transformToByteArray());
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async has(cid: string): Promise<boolean> {
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.options.bucket, Key: this.key(cid) }));
      return true;
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
  }

  async delete(cid: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.options.bucket, Key: this.key(cid) }));
  }

  private async *objects() {
    let token: string | undefined;
    do {
      const page = await this.client.send(new ListObjectsV2Command({ Bucket: this.options.bucket, Prefix: this.prefix, ContinuationToken: token }));
      for (const o of page.Contents ?? []) {
        const cid = o.Key?.slice(this.prefix.length) ?? '';
        if (isChunkCid(cid)) yield { cid, size: o.Size ?? 0 };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  async *list(): AsyncIterable<string> {
    for await (const o of this.objects()) yield o.cid;
  }

  async usage() {
    let chunks = 0;
    let bytes = 0;
    for await (const o of this.objects()) {
      chunks++;
      bytes += o.size;
    }
    return { chunks, bytes, freeBytes: null };
  }

  close() {
    this.client.destroy();
  }
}
