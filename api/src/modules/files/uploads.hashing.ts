import { createHash, type Hash } from 'node:crypto';
import { context, open, seal } from '@axel/platform/crypto/index';
import { decodeMultiHashState, encodeMultiHashState, MultiHash, type MultiHashState } from '@axel/platform/hashing/index';

/**
 * A hash state is sealed like the tail (it may hold up to a block of plaintext), bound to its upload's
 * key and to the offset it was taken at: a state can never be replayed against another offset.
 */
const stateAad = (keyId: string, offset: number) => context('axel-upload-hash-state', keyId, offset);
export const sealHashState = (key: Buffer, keyId: string, state: MultiHashState): Buffer =>
  seal(key, encodeMultiHashState(state), stateAad(keyId, state.bytes));
export const openHashState = (key: Buffer, keyId: string, offset: number, sealed: Buffer): MultiHashState => {
  const state = decodeMultiHashState(open(key, sealed, stateAad(keyId, offset)));
  if (state.bytes !== offset) throw new Error('hash state does not match the upload offset');
  return state;
};

/** The certificate hashes of a Secure Fetch upload, going on from the state kept with its offset (none before its first byte). */
export const resumeCertificateHashes = async (key: Buffer, keyId: string, offset: number, sealedState: Buffer | null): Promise<MultiHash> => {
  if (!sealedState) {
    if (offset !== 0) throw new Error('a Secure Fetch upload lost its hash state');
    return MultiHash.open();
  }
  return MultiHash.open(openHashState(key, keyId, offset, sealedState));
};

/**
 * The plaintext SHA-256 of the uploads this process is receiving, kept in memory between their
 * requests: a request goes on with the hash its upload's previous request left at its offset. When a
 * restart or another process broke that chain there is none, and the hash is computed at the end by
 * reading the chunks back.
 */
export class RunningSha256 {
  private readonly byUpload = new Map<string, { offset: number; hash: Hash }>();

  /** The hash to go on with from `offset` (a fresh one at 0), taken out until it is kept again. */
  take(uploadId: string, offset: number): Hash | undefined {
    const known = this.byUpload.get(uploadId);
    this.byUpload.delete(uploadId);
    if (offset === 0) return createHash('sha256');
    return known && known.offset === offset ? known.hash : undefined;
  }

  keep(uploadId: string, offset: number, hash: Hash): void {
    this.byUpload.set(uploadId, { offset, hash });
  }

  forget(uploadId: string): void {
    this.byUpload.delete(uploadId);
  }
}

/**
 * The running hashes of one request's plaintext, given each run of bytes once, in order: the SHA-256
 * (when the chain reaches this request) and, for a Secure Fetch upload, MD5, SHA-1 and SHA3-512,
 * whose state is sealed to be kept with the offset it was taken at.
 */
export class UploadHashing {
  constructor(
    readonly sha256: Hash | undefined,
    readonly certificate: MultiHash | undefined,
    private readonly key: Buffer,
    private readonly keyId: string,
  ) {}

  /**
   * Hashes `bytes`, which end at the upload's offset `at`; `bytes` may be reused once this settles.
   * Answers (wrapped, so the caller need not wait for the worker) the sealed certificate hash state
   * at `at`, for a Secure Fetch upload.
   */
  async add(bytes: Buffer, at: number): Promise<{ readonly kept: Promise<Buffer> } | undefined> {
    const certificate = this.certificate;
    // the worker's share is handed over first, so it hashes while this thread does the SHA-256
    const updating = certificate?.update(bytes);
    this.sha256?.update(bytes);
    if (!certificate) return undefined;
    await updating;
    const kept = certificate.save().then((state) => {
      if (state.bytes !== at) throw new Error('hash state out of step with the upload');
      return sealHashState(this.key, this.keyId, state);
    });
    kept.catch(() => undefined);
    return { kept };
  }

  /** Lets go of the certificate hashes' worker session (idempotent: a digest has already ended it). */
  close(): void {
    this.certificate?.close();
  }
}
