import { describe, expect, it } from 'vitest';
import type { DomainError } from '../shared/errors';
import { canonicalJson, certificateBody, receiptBody } from './secure-fetch.certificate';
import { admitUpload, relpathFolders, secureFetchCounterDecider, SECURE_FETCH_FILE_LIMIT } from './secure-fetch.decide';
import { SecureFetchErrors } from './secure-fetch.errors';
import type { SecureFetchLink } from './secure-fetch.state';
import { codeOf, receivedFile, SecureFetchHistory } from './secure-fetch.testing';

const submitted = (files = [receivedFile(1), receivedFile(2)]) => {
  const h = new SecureFetchHistory();
  h.create();
  h.run('SubmitSecureFetch', { storageId: 's1', folderId: 'folder-1', files, metadata: null, maxSize: SECURE_FETCH_FILE_LIMIT });
  return h;
};
const admitCode = (h: SecureFetchHistory, size = 1, maxSize: number | null = SECURE_FETCH_FILE_LIMIT) => {
  try {
    admitUpload(h.state, { size, maxSize }, h.now);
    return 'ok';
  } catch (error) {
    return (error as DomainError).code;
  }
};

describe('secure fetch decider', () => {
  it('creates a pending link: certificate on is a secure-certificate-fetch, all three hashes by default', () => {
    const h = new SecureFetchHistory();
    h.create();
    expect(h.state).toMatchObject({ status: 'pending', type: 'secure-certificate-fetch', certificated: true, hashChoice: ['md5', 'sha1', 'sha3-512'] });
    const plain = new SecureFetchHistory();
    plain.create({ certificated: false, hashChoice: ['sha1'] });
    expect(plain.state).toMatchObject({ type: 'upload-link', certificated: false, hashChoice: ['sha1'] });
  });

  it('requires a note without the forbidden characters, and an expiry in the future', () => {
    expect(codeOf(new SecureFetchHistory().create({ note: '   ' }))).toBe(SecureFetchErrors.noteRequired.code);
    for (const c of ['*', '\\', '/', '<', '>', '?', '"', '|', ':']) {
      expect(codeOf(new SecureFetchHistory().create({ note: `a${c}b` }))).toBe(SecureFetchErrors.invalidNote.code);
    }
    expect(codeOf(new SecureFetchHistory().create({ expiresAt: '2026-05-04T09:00:00.000Z' }))).toBe(SecureFetchErrors.invalidExpiry.code);
    expect(codeOf(new SecureFetchHistory().create({ expiresAt: '2026-05-05T09:00:00.000Z' }))).toBe('ok');
  });

  it('admits uploads while valid and within the size limit; refuses missing, used, revoked, expired and oversized', () => {
    expect(admitCode(new SecureFetchHistory())).toBe(SecureFetchErrors.missing.code);
    const h = new SecureFetchHistory();
    h.create({ expiresAt: '2026-05-04T11:00:00.000Z' });
    expect(admitCode(h)).toBe('ok');
    expect(admitCode(h, SECURE_FETCH_FILE_LIMIT + 1)).toBe(SecureFetchErrors.tooLarge.code);
    expect(admitCode(h, SECURE_FETCH_FILE_LIMIT + 1, null)).toBe('ok');
    h.now = new Date('2026-05-04T11:00:00.000Z');
    expect(admitCode(h)).toBe(SecureFetchErrors.invalid.code);
    const revoked = new SecureFetchHistory();
    revoked.create();
    revoked.run('RevokeSecureFetch', {});
    expect(admitCode(revoked)).toBe(SecureFetchErrors.invalid.code);
    expect(admitCode(submitted())).toBe(SecureFetchErrors.used.code);
  });

  it('a submission uses the link once: a retry of the same files is a no-op, other files are refused', () => {
    const h = submitted();
    expect(h.state).toMatchObject({ status: 'uploaded', usedAt: '2026-05-04T10:00:00.000Z' });
    expect(
      h.run('SubmitSecureFetch', { storageId: 's1', folderId: 'folder-1', files: [receivedFile(1), receivedFile(2)], metadata: null, maxSize: null }),
    ).toEqual([]);
    expect(codeOf(h.run('SubmitSecureFetch', { storageId: 's1', folderId: 'folder-1', files: [receivedFile(3)], metadata: null, maxSize: null }))).toBe(
      SecureFetchErrors.used.code,
    );
  });

  it('files sent from folders keep their folders, each a valid folder name', () => {
    expect(relpathFolders(null)).toEqual([]);
    expect(relpathFolders('photos//2024/')).toEqual(['photos', '2024']);
    expect(() => relpathFolders('a.b')).toThrow(expect.objectContaining({ code: 'INVALID_NAME' }));
    expect(() => relpathFolders(Array.from({ length: 33 }, () => 'x').join('/'))).toThrow(expect.objectContaining({ code: 'INVALID_NAME' }));
    const h = new SecureFetchHistory();
    h.create();
    expect(
      codeOf(
        h.run('SubmitSecureFetch', { storageId: 's1', folderId: 'f', files: [{ ...receivedFile(1), relpath: 'bad:dir' }], metadata: null, maxSize: null }),
      ),
    ).toBe('INVALID_NAME');
    expect(h.state.status).toBe('pending');
  });

  it('keeps the metadata only when the link asked for it', () => {
    const metadata = { contactEmail: 'a@b.example', copyrightTypeId: 2, isbn: null, keywords: null, publisher: null, website: null, author: 'Ann' };
    const without = new SecureFetchHistory();
    without.create({ includeMetadata: false });
    without.run('SubmitSecureFetch', { storageId: 's1', folderId: 'f', files: [receivedFile(1)], metadata, maxSize: null });
    expect((without.state as SecureFetchLink).submission?.metadata).toBeNull();
    const withIt = new SecureFetchHistory();
    withIt.create();
    withIt.run('SubmitSecureFetch', { storageId: 's1', folderId: 'f', files: [receivedFile(1)], metadata, maxSize: null });
    expect((withIt.state as SecureFetchLink).submission?.metadata).toEqual(metadata);
  });

  it('pays once: nothing to pay before files arrive; paid becomes active; a failed payment can be tried again', () => {
    const early = new SecureFetchHistory();
    early.create();
    expect(codeOf(early.run('StartSecureFetchPayment', { certificateId: 'c1', lastOpened: {}, canonicalSha256: 'd'.repeat(64) }))).toBe(
      SecureFetchErrors.nothingToPay.code,
    );
    const h = submitted();
    h.run('StartSecureFetchPayment', { certificateId: 'c1', lastOpened: {}, canonicalSha256: 'd'.repeat(64) });
    h.run('FailSecureFetchPayment', { refusedWith: 'INSUFFICIENT_CONFIRMED_TOKENS' });
    expect((h.state as SecureFetchLink).payment).toBeNull();
    h.run('StartSecureFetchPayment', { certificateId: 'c1', lastOpened: {}, canonicalSha256: 'e'.repeat(64) });
    expect(h.run('StartSecureFetchPayment', { certificateId: 'c1', lastOpened: {}, canonicalSha256: 'f'.repeat(64) })).toEqual([]);
    h.run('RecordSecureFetchPayment', { txId: 'tx-1', amount: 900_000 });
    expect(h.state).toMatchObject({ status: 'active', payment: { txId: 'tx-1', canonicalSha256: 'e'.repeat(64) } });
    expect(h.run('RecordSecureFetchPayment', { txId: 'tx-2', amount: 900_000 })).toEqual([]);
  });

  it('collects unpaid files once, never paid or paying ones; collected files cannot be paid for', () => {
    const unpaid = submitted();
    const collected = unpaid.run('CollectUnpaidFiles', {});
    expect(collected).toEqual([
      {
        type: 'SecureFetchFilesCollected',
        data: { storageId: 's1', folderId: 'folder-1', itemIds: ['item-1', 'item-2'], collectedAt: '2026-05-04T10:00:00.000Z' },
      },
    ]);
    expect(unpaid.run('CollectUnpaidFiles', {})).toEqual([]);
    expect(codeOf(unpaid.run('StartSecureFetchPayment', { certificateId: null, lastOpened: {}, canonicalSha256: 'd'.repeat(64) }))).toBe(
      SecureFetchErrors.collected.code,
    );
    const paying = submitted();
    paying.run('StartSecureFetchPayment', { certificateId: null, lastOpened: {}, canonicalSha256: 'd'.repeat(64) });
    expect(paying.run('CollectUnpaidFiles', {})).toEqual([]);
    const pending = new SecureFetchHistory();
    pending.create();
    expect(pending.run('CollectUnpaidFiles', {})).toEqual([]);
  });

  it('the monthly counter refuses past the plan with the limit in the message data, and counts a fetch once', () => {
    let state = secureFetchCounterDecider.initialState();
    const count = (fetchId: string, limit: number | null) => {
      const events = secureFetchCounterDecider.decide({ type: 'CountSecureFetch', data: { fetchId, limit }, metadata: { now: new Date() } }, state);
      state = events.reduce(secureFetchCounterDecider.evolve, state);
      return events.length;
    };
    expect(count('a', 2)).toBe(1);
    expect(count('a', 2)).toBe(0);
    expect(count('b', 2)).toBe(1);
    expect(() => count('c', 2)).toThrow(expect.objectContaining({ code: 'SECURE_FETCH_LIMIT_REACHED', data: { limit: 2 } }));
    expect(count('c', null)).toBe(1);
  });
});

describe('certificate and receipt', () => {
  it('canonical JSON sorts keys at every level, keeps array order and leaves out absent values', () => {
    expect(canonicalJson({ b: 1, a: [{ d: 'x', c: null }, 2], e: undefined })).toBe('{"a":[{"c":null,"d":"x"},2],"b":1}');
  });

  it('shows the chosen hashes, created, modified and last opened; metadata only when asked for', () => {
    const h = new SecureFetchHistory();
    h.create({ hashChoice: ['md5', 'sha3-512'], includeMetadata: false });
    h.run('SubmitSecureFetch', {
      storageId: 's1',
      folderId: 'f',
      files: [{ ...receivedFile(1), modified: '2026-01-01T00:00:00.000Z' }],
      metadata: null,
      maxSize: null,
    });
    const body = certificateBody(h.state as SecureFetchLink, {
      certificateId: 'c1',
      issuedAt: '2026-05-04T10:05:00.000Z',
      lastOpened: { 'item-1': '2026-05-04T10:01:00.000Z' },
    });
    expect(body).toEqual({
      certificateId: 'c1',
      fetchId: 'f1',
      files: [
        {
          name: 'file-1.txt',
          size: 100,
          md5: 'a'.repeat(32),
          sha3_512: 'c'.repeat(128),
          created: '2026-05-04T10:00:00.000Z',
          modified: '2026-01-01T00:00:00.000Z',
          lastOpened: '2026-05-04T10:01:00.000Z',
        },
      ],
      issuedAt: '2026-05-04T10:05:00.000Z',
    });
    expect(receiptBody(h.state as SecureFetchLink).items[0]).toEqual({
      name: 'file-1.txt',
      size: 100,
      md5: 'a'.repeat(32),
      sha1: 'b'.repeat(40),
      sha3_512: 'c'.repeat(128),
    });
  });
});
