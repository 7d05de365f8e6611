import { canonicalJson as domainCanonicalJson, receiptJson as domainReceiptJson } from '@axel/domain/secure-fetch/secure-fetch.certificate';
import { createHash, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from './canonical';
import { hashBlob, HASH_SLICE_BYTES } from './hashing.core';
import { checkReceipt } from './receipt';
import { publishedKeys, receiptMessage, receiptSignatureValid } from './receipt-signature';
import { certificateIntact, chainAnchor, readCertificate, verifyFile } from './verify';

const digest = (algorithm: string, bytes: Uint8Array) => createHash(algorithm).update(bytes).digest('hex');
const hashesOf = (bytes: Uint8Array) => ({ md5: digest('md5', bytes), sha1: digest('sha1', bytes), sha3_512: digest('sha3-512', bytes) });

describe('browser hashing', () => {
  it('MD5, SHA-1 and SHA3-512 in one pass equal node:crypto, across slice boundaries', async () => {
    const bytes = new Uint8Array(HASH_SLICE_BYTES * 2 + 12345).map((_, i) => (i * 31 + 7) % 251);
    const seen: number[] = [];
    const hashes = await hashBlob(new Blob([bytes]), (n) => seen.push(n));
    expect(hashes).toEqual(hashesOf(bytes));
    expect(seen).toEqual([HASH_SLICE_BYTES, HASH_SLICE_BYTES * 2, bytes.length]);
    expect(await hashBlob(new Blob([]))).toEqual(hashesOf(new Uint8Array()));
  });
});

const fileBytes = new TextEncoder().encode('the signed contract, version 2');
const fileHashes = hashesOf(fileBytes);
const body = {
  certificateId: 'cert-1',
  fetchId: 'fetch-1',
  files: [
    {
      name: 'contract.pdf',
      size: fileBytes.length,
      ...fileHashes,
      created: '2026-05-01T12:00:00.000Z',
      modified: '2026-05-01T12:00:00.000Z',
      lastOpened: null,
    },
  ],
  metadata: { contactEmail: 'ana@example.org', copyrightTypeId: 3, isbn: null, keywords: null, publisher: null, website: null, author: 'Ana' },
  issuedAt: '2026-05-01T12:05:00.000Z',
};
const issued = { ...body, txId: 'ab'.repeat(32), canonicalSha256: createHash('sha256').update(domainCanonicalJson(body)).digest('hex') };

describe('certificate verification', () => {
  it('writes canonical JSON exactly as the server does', () => {
    expect(canonicalJson(issued)).toBe(domainCanonicalJson(issued));
  });

  it('reads a certificate, and finds it intact until a byte of it changes', async () => {
    const read = readCertificate(JSON.stringify(issued, null, 2));
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(await certificateIntact(read.raw)).toBe(true);
    expect(await certificateIntact({ ...read.raw, issuedAt: '2026-05-01T12:05:01.000Z' })).toBe(false);
    expect(await certificateIntact({ ...read.raw, canonicalSha256: undefined })).toBeNull();
    expect(readCertificate('{not json')).toEqual({ ok: false, reason: 'notJson' });
    expect(readCertificate('{"files": []}')).toEqual({ ok: false, reason: 'notCertificate' });
  });

  it('says the file matches, or which hash differs, or that it is not certified', () => {
    const certificate = { files: issued.files };
    expect(verifyFile(certificate, { name: 'renamed.pdf', size: fileBytes.length }, fileHashes)).toMatchObject({
      kind: 'match',
      hashes: { md5: 'match', sha1: 'match', sha3_512: 'match' },
      sizeMatches: true,
    });
    const other = hashesOf(new TextEncoder().encode('another file'));
    expect(verifyFile(certificate, { name: 'contract.pdf', size: 12 }, other)).toMatchObject({
      kind: 'mismatch',
      hashes: { md5: 'differs', sha1: 'differs', sha3_512: 'differs' },
      sizeMatches: false,
    });
    // A certificate that shows only the SHA3-512 the owner chose: the others are not shown.
    const only = { files: [{ name: 'contract.pdf', size: fileBytes.length, sha3_512: fileHashes.sha3_512 }] };
    expect(verifyFile(only, { name: 'x', size: fileBytes.length }, fileHashes)).toMatchObject({
      kind: 'match',
      hashes: { md5: 'notShown', sha1: 'notShown', sha3_512: 'match' },
    });
    // One hash differing is named.
    const forged = {
      files: [
        { ...issued.files[0]!, sha1: '0'.repeat(40) },
        { name: 'b.txt', size: 1, md5: '1'.repeat(32) },
      ],
    };
    expect(verifyFile(forged, { name: 'contract.pdf', size: fileBytes.length }, fileHashes)).toMatchObject({
      kind: 'mismatch',
      hashes: { md5: 'match', sha1: 'differs', sha3_512: 'match' },
    });
    expect(verifyFile({ files: [issued.files[0]!, { name: 'b.txt', size: 1 }] }, { name: 'c.txt', size: 3 }, other)).toEqual({ kind: 'notInCertificate' });
  });
});

describe('chain anchor', () => {
  it('the transaction must carry the certificate fingerprint as its data', () => {
    const read = readCertificate(JSON.stringify(issued));
    if (!read.ok) throw new Error('not read');
    expect(chainAnchor(read.certificate, { data: issued.canonicalSha256.toUpperCase(), confirmations: 2 })).toEqual({ kind: 'anchored', confirmations: 2 });
    expect(chainAnchor(read.certificate, { data: 'ff'.repeat(32), confirmations: 2 })).toEqual({ kind: 'differs' });
    expect(chainAnchor(read.certificate, { data: null, confirmations: 2 })).toEqual({ kind: 'differs' });
    expect(chainAnchor(read.certificate, null)).toEqual({ kind: 'unknown' });
    expect(chainAnchor({ canonicalSha256: undefined }, { data: 'ff', confirmations: 1 })).toEqual({ kind: 'unknown' });
    // an altered certificate keeping the issued fingerprint is not the one the transaction carries
    expect(chainAnchor(read.certificate, { data: issued.canonicalSha256, confirmations: 2 }, false)).toEqual({ kind: 'differs' });
    expect(chainAnchor(read.certificate, { data: issued.canonicalSha256, confirmations: 2 }, null)).toEqual({ kind: 'anchored', confirmations: 2 });
  });
});

describe('receipt check', () => {
  it('every sent file must be in the receipt with the three hashes the browser computed', () => {
    const a = { name: 'a.txt', size: 3, hashes: hashesOf(new TextEncoder().encode('aaa')) };
    const b = { name: 'b.txt', size: 3, hashes: hashesOf(new TextEncoder().encode('bbb')) };
    const receipt = {
      items: [
        { name: 'a.txt', size: 3, ...a.hashes },
        { name: 'b.txt', size: 3, ...b.hashes, sha1: a.hashes.sha1 },
      ],
    };
    expect(checkReceipt(receipt, [a, b, { ...a, name: 'c.txt' }])).toEqual([
      { name: 'a.txt', status: 'match' },
      { name: 'b.txt', status: 'differs', hashes: ['sha1'] },
      { name: 'c.txt', status: 'missing' },
    ]);
  });
});

describe('receipt signature', () => {
  it('is valid for the receipt as signed with the server key, and refused once anything changes', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const pem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
    const body = {
      fetchId: 'fetch-1',
      items: [{ name: 'a.txt', size: 3, ...hashesOf(new TextEncoder().encode('aaa')) }],
      receivedAt: '2026-05-01T12:00:00.000Z',
    };
    expect(receiptMessage(body)).toBe(domainReceiptJson(body));
    const receipt = { ...body, keyId: 'k1', signature: sign(null, Buffer.from(domainReceiptJson(body), 'utf8'), privateKey).toString('base64') };
    expect(await receiptSignatureValid(receipt, pem)).toBe(true);
    expect(await receiptSignatureValid({ ...receipt, items: [{ ...receipt.items[0]!, size: 4 }] }, pem)).toBe(false);
    expect(await receiptSignatureValid({ ...receipt, signature: '' }, pem)).toBe(false);
    const other = generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'pem' }).toString();
    expect(await receiptSignatureValid(receipt, other)).toBe(false);
  });

  it('verifies with any key of the published keyring: a receipt signed before a key rotation still checks', async () => {
    const rotatedOut = generateKeyPairSync('ed25519');
    const current = generateKeyPairSync('ed25519');
    const pemOf = (k: KeyObject) => k.export({ type: 'spki', format: 'pem' }).toString();
    const body = {
      fetchId: 'fetch-2',
      items: [{ name: 'b.txt', size: 3, ...hashesOf(new TextEncoder().encode('bbb')) }],
      receivedAt: '2026-05-02T12:00:00.000Z',
    };
    const signed = sign(null, Buffer.from(domainReceiptJson(body), 'utf8'), rotatedOut.privateKey).toString('base64');
    const receipt = { ...body, keyId: 'old-key', signature: signed };
    // the keyring as `/.well-known/audit-key?keys=all` answers it in JSON
    const answer = {
      current: 'new-key',
      keys: [
        { keyId: 'new-key', publicKey: pemOf(current.publicKey), current: true },
        { keyId: 'old-key', publicKey: pemOf(rotatedOut.publicKey), current: false },
      ],
    };
    const keyring = publishedKeys(answer);
    expect(keyring.map((k) => k.keyId)).toEqual(['new-key', 'old-key']);
    expect(await receiptSignatureValid(receipt, keyring)).toBe(true);
    // only the current key listed (the old key not published): refused, as a forged receipt is
    expect(await receiptSignatureValid(receipt, keyring.slice(0, 1))).toBe(false);
    // a receipt naming the current key but signed by another is refused, whatever else is listed
    expect(await receiptSignatureValid({ ...receipt, keyId: 'new-key' }, keyring)).toBe(false);
    // a receipt that names no key is checked against each listed key
    const { keyId: _keyId, ...unnamed } = receipt;
    expect(await receiptSignatureValid(unnamed, keyring)).toBe(true);
    expect(await receiptSignatureValid({ ...receipt, items: [{ ...receipt.items[0]!, size: 4 }] }, keyring)).toBe(false);
    expect(publishedKeys({ nothing: true })).toEqual([]);
  });
});
