import type { Command } from '../shared/decider';
import type { HashChoice, ReceivedFile, SecureFetchMetadata } from './secure-fetch.events';

/*
 * Commands carry what the API established outside the pure core: the new ids, the random linkId,
 * the finished uploads' hashes, the per-file size limit of the owner's plan, the time (metadata.now).
 */

export type CreateSecureFetch = Command<
  'CreateSecureFetch',
  {
    fetchId: string;
    linkId: string;
    ownerId: string;
    note: string;
    expiresAt: string | null;
    includeMetadata: boolean;
    hashChoice: readonly HashChoice[];
    certificated: boolean;
  }
>;
export type RevokeSecureFetch = Command<'RevokeSecureFetch', Record<string, never>>;
export type SubmitSecureFetch = Command<
  'SubmitSecureFetch',
  {
    storageId: string;
    folderId: string;
    files: readonly ReceivedFile[];
    metadata: SecureFetchMetadata | null;
    /** Per-file limit of the owner's plan; null: none. */
    maxSize: number | null;
  }
>;
export type OpenSecureFetchItem = Command<'OpenSecureFetchItem', { itemId: string }>;
export type StartSecureFetchPayment = Command<
  'StartSecureFetchPayment',
  {
    certificateId: string | null;
    lastOpened: Readonly<Record<string, string | null>>;
    canonicalSha256: string;
    /** The IPFS root CID of each received file, by item id (built before the certificate is fixed). */
    cids?: Readonly<Record<string, string>>;
  }
>;
export type FailSecureFetchPayment = Command<'FailSecureFetchPayment', { refusedWith: string }>;
export type RecordSecureFetchPayment = Command<'RecordSecureFetchPayment', { txId: string; amount: number }>;
export type CollectUnpaidFiles = Command<'CollectUnpaidFiles', Record<string, never>>;
export type ForgetSecureFetch = Command<'ForgetSecureFetch', Record<string, never>>;

export type SecureFetchCommand =
  | CreateSecureFetch
  | RevokeSecureFetch
  | SubmitSecureFetch
  | OpenSecureFetchItem
  | StartSecureFetchPayment
  | FailSecureFetchPayment
  | RecordSecureFetchPayment
  | CollectUnpaidFiles
  | ForgetSecureFetch;

export type CountSecureFetch = Command<'CountSecureFetch', { fetchId: string; limit: number | null }>;
