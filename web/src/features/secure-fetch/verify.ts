import { sha256 } from 'hash-wasm';
import { z } from 'zod';
import { canonicalJson } from './canonical';
import { HASH_NAMES, type FileHashes, type HashName } from './hashing.core';

const hex = z
  .string()
  .regex(/^[0-9a-fA-F]+$/)
  .transform((v) => v.toLowerCase());

/** A certified file: the hashes the owner chose to show (any of the three), with its size and dates. */
export const CertifiedFileSchema = z.object({
  name: z.string(),
  size: z.number().int().nonnegative().optional(),
  md5: hex.optional().nullable(),
  sha1: hex.optional().nullable(),
  sha3_512: hex.optional().nullable(),
});
export type CertifiedFile = z.infer<typeof CertifiedFileSchema>;

/** The certificate of a Secure Fetch as its JSON download holds it; unknown members are kept for the fingerprint. */
export const CertificateSchema = z.looseObject({
  certificateId: z.string().optional(),
  fetchId: z.string().optional(),
  files: z.array(z.looseObject(CertifiedFileSchema.shape)).min(1),
  issuedAt: z.string().optional(),
  txId: z.string().nullable().optional(),
  canonicalSha256: hex.optional(),
});
export type Certificate = z.infer<typeof CertificateSchema>;

export type ReadCertificate = { ok: true; certificate: Certificate; raw: Record<string, unknown> } | { ok: false; reason: 'notJson' | 'notCertificate' };

/** The text of a chosen certificate file as a certificate, or why it is not one. */
export const readCertificate = (text: string): ReadCertificate => {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'notJson' };
  }
  const parsed = CertificateSchema.safeParse(raw);
  return parsed.success ? { ok: true, certificate: parsed.data, raw: raw as Record<string, unknown> } : { ok: false, reason: 'notCertificate' };
};

/**
 * Whether the certificate is as issued: the SHA-256 of its canonical JSON without `txId` and
 * `canonicalSha256` equals `canonicalSha256` (the value the chain transaction carries). Null when
 * the certificate has no fingerprint to check.
 */
export const certificateIntact = async (raw: Record<string, unknown>): Promise<boolean | null> => {
  const stated = raw.canonicalSha256;
  if (typeof stated !== 'string') return null;
  const { txId: _txId, canonicalSha256: _own, ...rest } = raw;
  return (await sha256(canonicalJson(rest))) === stated.toLowerCase();
};

export type HashVerdict = 'match' | 'differs' | 'notShown';

export type FileVerdict =
  | { kind: 'notInCertificate' }
  | { kind: 'match' | 'mismatch'; entry: CertifiedFile; hashes: Record<HashName, HashVerdict>; sizeMatches: boolean | null };

const verdictsFor = (entry: CertifiedFile, actual: FileHashes): Record<HashName, HashVerdict> => {
  const out = {} as Record<HashName, HashVerdict>;
  for (const name of HASH_NAMES) {
    const stated = entry[name];
    out[name] = !stated ? 'notShown' : stated === actual[name] ? 'match' : 'differs';
  }
  return out;
};

const matchCount = (v: Record<HashName, HashVerdict>) => HASH_NAMES.filter((n) => v[n] === 'match').length;

/**
 * The verdict for a file against a certificate. The certificate entry is the one whose hashes
 * the file matches; failing that the one with the file's name (so the page can say which hash
 * differs); a certificate of a single file is compared with that file. The file matches when every
 * hash the certificate shows is equal (and at least one is shown).
 */
export const verifyFile = (certificate: Pick<Certificate, 'files'>, file: { name: string; size: number }, actual: FileHashes): FileVerdict => {
  const judged = certificate.files.map((entry) => ({ entry, hashes: verdictsFor(entry, actual) }));
  const full = judged.find((j) => matchCount(j.hashes) > 0 && HASH_NAMES.every((n) => j.hashes[n] !== 'differs'));
  const chosen = full ?? judged.find((j) => j.entry.name === file.name) ?? (judged.length === 1 ? judged[0] : undefined);
  if (!chosen) return { kind: 'notInCertificate' };
  const sizeMatches = chosen.entry.size === undefined ? null : chosen.entry.size === file.size;
  const matches = chosen === full && sizeMatches !== false;
  return { kind: matches ? 'match' : 'mismatch', entry: chosen.entry, hashes: chosen.hashes, sizeMatches };
};

/** A chain transaction as the public explorer answers it: the data payload is what it timestamps. */
export interface AnchorTransaction {
  data: string | null;
  confirmations: number;
}

export type ChainAnchor = { kind: 'anchored'; confirmations: number } | { kind: 'differs' } | { kind: 'unknown' };

/**
 * Whether the certificate's transaction timestamps this very certificate: the transaction's data
 * payload is the certificate's own fingerprint (`canonicalSha256`). A certificate whose content no
 * longer hashes to the fingerprint it states (`intact` false) is not the one the transaction
 * carries, whatever fingerprint it copies.
 */
export const chainAnchor = (certificate: Pick<Certificate, 'canonicalSha256'>, tx: AnchorTransaction | null, intact: boolean | null = true): ChainAnchor => {
  if (!tx || !certificate.canonicalSha256) return { kind: 'unknown' };
  if (intact === false) return { kind: 'differs' };
  return tx.data?.toLowerCase() === certificate.canonicalSha256 ? { kind: 'anchored', confirmations: tx.confirmations } : { kind: 'differs' };
};
