import { HASH_NAMES, type FileHashes, type HashName } from './hashing.core';

/** The server's signed receipt of a Secure Fetch submission. */
export interface Receipt {
  items: Array<{ name: string; size: number } & FileHashes>;
  receivedAt: string;
  signature: string;
  [extra: string]: unknown;
}

export interface LocalFile {
  /** The path the file was sent under (folder path and name). */
  name: string;
  size: number;
  hashes: FileHashes;
}

export type ReceiptCheck = { name: string; status: 'match' } | { name: string; status: 'differs'; hashes: HashName[] } | { name: string; status: 'missing' };

/**
 * Each file the browser sent, checked against the receipt: the receipt item of the same name
 * (and size) must carry the three hashes the browser computed. A file the receipt does not name
 * is `missing`.
 */
export const checkReceipt = (receipt: Pick<Receipt, 'items'>, sent: readonly LocalFile[]): ReceiptCheck[] => {
  const unused = [...receipt.items];
  return sent.map((file) => {
    const index = unused.findIndex((i) => i.name === file.name && i.size === file.size);
    if (index < 0) return { name: file.name, status: 'missing' as const };
    const [item] = unused.splice(index, 1);
    const differing = HASH_NAMES.filter((h) => item![h]?.toLowerCase() !== file.hashes[h]);
    return differing.length ? { name: file.name, status: 'differs' as const, hashes: differing } : { name: file.name, status: 'match' as const };
  });
};

export const receiptAllMatch = (checks: readonly ReceiptCheck[]) => checks.length > 0 && checks.every((c) => c.status === 'match');
