import type { HashChoice, SecureFetchMetadata } from './secure-fetch.events';
import type { SecureFetchLink } from './secure-fetch.state';

/*
 * The certificate of authenticity and the uploader's receipt, as plain values, and their canonical
 * JSON: the text whose SHA-256 the pinning transaction carries and whose signature the receipt has.
 * Pure: hashing and signing happen at the edge (node:crypto), over exactly this text.
 */

type Json = null | boolean | number | string | readonly Json[] | { readonly [key: string]: Json | undefined };

/** JSON with the keys of every object sorted, no whitespace, absent (undefined) values left out. */
export const canonicalJson = (value: Json | undefined): string => {
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'number' && !Number.isFinite(value)) throw new Error('canonical JSON has no place for non-finite numbers');
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : canonicalJson(v))).join(',')}]`;
  const entries = Object.entries(value as Record<string, Json | undefined>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
};

export interface CertificateFile {
  readonly name: string;
  readonly size: number;
  readonly md5?: string;
  readonly sha1?: string;
  readonly sha3_512?: string;
  readonly created: string;
  readonly modified: string;
  readonly lastOpened: string | null;
  /** The file's IPFS root CID (UnixFS, CIDv1): what its public link fetches and any IPFS client verifies. */
  readonly cid?: string;
}

/** The certificate without its transaction: the part whose canonical SHA-256 the chain timestamps. */
export interface CertificateBody {
  readonly certificateId: string | null;
  readonly fetchId: string;
  readonly files: readonly CertificateFile[];
  readonly metadata?: SecureFetchMetadata;
  readonly issuedAt: string;
}

export interface Certificate extends CertificateBody {
  readonly txId: string;
  readonly canonicalSha256: string;
}

const chosen = (choice: readonly HashChoice[], hashes: { md5: string; sha1: string; sha3_512: string }) => ({
  ...(choice.includes('md5') ? { md5: hashes.md5 } : {}),
  ...(choice.includes('sha1') ? { sha1: hashes.sha1 } : {}),
  ...(choice.includes('sha3-512') ? { sha3_512: hashes.sha3_512 } : {}),
});

/** The certificate of a used link, as issued at `issue.issuedAt` (the hashes its owner chose). */
export const certificateBody = (
  link: SecureFetchLink,
  issue: {
    readonly certificateId: string | null;
    readonly issuedAt: string;
    readonly lastOpened: Readonly<Record<string, string | null>>;
    readonly cids?: Readonly<Record<string, string>>;
  },
): CertificateBody => {
  const submission = link.submission;
  if (!submission) throw new Error('a certificate needs received files');
  return {
    certificateId: issue.certificateId,
    fetchId: link.fetchId,
    files: submission.files.map((f) => ({
      name: f.name,
      size: f.size,
      ...chosen(link.hashChoice, f.hashes),
      created: submission.submittedAt,
      modified: f.modified ?? submission.submittedAt,
      lastOpened: issue.lastOpened[f.itemId] ?? null,
      ...(issue.cids?.[f.itemId] ? { cid: issue.cids[f.itemId] } : {}),
    })),
    ...(link.includeMetadata && submission.metadata ? { metadata: submission.metadata } : {}),
    issuedAt: issue.issuedAt,
  };
};

export const certificateJson = (body: CertificateBody): string => canonicalJson(body as unknown as Json);

export interface ReceiptBody {
  readonly fetchId: string;
  readonly items: readonly { readonly name: string; readonly size: number; readonly md5: string; readonly sha1: string; readonly sha3_512: string }[];
  readonly receivedAt: string;
}

/** What the uploader keeps: every file with its three hashes, and when they arrived. */
export const receiptBody = (link: SecureFetchLink): ReceiptBody => {
  const submission = link.submission;
  if (!submission) throw new Error('a receipt needs received files');
  return {
    fetchId: link.fetchId,
    items: submission.files.map((f) => ({ name: f.name, size: f.size, md5: f.hashes.md5, sha1: f.hashes.sha1, sha3_512: f.hashes.sha3_512 })),
    receivedAt: submission.submittedAt,
  };
};

export const receiptJson = (body: ReceiptBody): string => canonicalJson(body as unknown as Json);
