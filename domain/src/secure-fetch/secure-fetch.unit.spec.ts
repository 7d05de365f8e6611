import { describe, expect, it } from 'vitest';
import { fold } from '../shared/decider';
import { DeciderSpecification } from '../shared/decider.testing';
import type { DomainError } from '../shared/errors';
import { StorageErrors } from '../storage/storage.errors';
import { canonicalJson, certificateBody, receiptBody } from './secure-fetch.certificate';
import type { CountSecureFetch, SecureFetchCommand } from './secure-fetch.commands';
import { admitUpload, relpathFolders, secureFetchCounterDecider, secureFetchDecider, SECURE_FETCH_FILE_LIMIT } from './secure-fetch.decide';
import { SecureFetchErrors } from './secure-fetch.errors';
import type { SecureFetchCounterEvent, SecureFetchEvent } from './secure-fetch.events';
import type { SecureFetchLink } from './secure-fetch.state';
import { receivedFile } from './secure-fetch.testing';

const now = new Date('2026-05-04T10:00:00.000Z');
type Data<T extends SecureFetchCommand['type']> = Extract<SecureFetchCommand, { type: T }>['data'];
const cmd = <T extends SecureFetchCommand['type']>(type: T, data: Data<T>, at = now) => ({ type, data, metadata: { now: at } }) as SecureFetchCommand;
const given = DeciderSpecification.for(secureFetchDecider);
const history = (commands: SecureFetchCommand[], before: SecureFetchEvent[] = []) => DeciderSpecification.history(secureFetchDecider, commands, before);
const stateOf = (events: SecureFetchEvent[]) => fold(secureFetchDecider, events);

const create = (overrides: Partial<Data<'CreateSecureFetch'>> = {}) =>
  cmd('CreateSecureFetch', {
    fetchId: 'f1',
    linkId: 'L'.repeat(22),
    ownerId: 'u1',
    note: 'Send me the manuscript',
    expiresAt: null,
    includeMetadata: true,
    hashChoice: [],
    certificated: true,
    ...overrides,
  });
const submit = (
  files = [receivedFile(1), receivedFile(2)],
  maxSize: number | null = SECURE_FETCH_FILE_LIMIT,
  folderId = 'folder-1',
  metadata: Data<'SubmitSecureFetch'>['metadata'] = null,
) => cmd('SubmitSecureFetch', { storageId: 's1', folderId, files, metadata, maxSize });
const startPayment = (canonicalSha256: string, certificateId: string | null = 'c1') =>
  cmd('StartSecureFetchPayment', { certificateId, lastOpened: {}, canonicalSha256 });
const created = (overrides: Partial<Data<'CreateSecureFetch'>> = {}) => history([create(overrides)]);
const submitted = () => history([create(), submit()]);
const admitCode = (events: SecureFetchEvent[], size = 1, maxSize: number | null = SECURE_FETCH_FILE_LIMIT, at = now) => {
  try {
    admitUpload(stateOf(events), { size, maxSize }, at);
    return 'ok';
  } catch (error) {
    return (error as DomainError).code;
  }
};
const one = (events: unknown[]) => expect(events).toHaveLength(1);

describe('secure fetch decider', () => {
  it('creates a pending link: certificate on is a secure-certificate-fetch, all three hashes by default', () => {
    given([])
      .when(create())
      .thenState((state) =>
        expect(state).toMatchObject({ status: 'pending', type: 'secure-certificate-fetch', certificated: true, hashChoice: ['md5', 'sha1', 'sha3-512'] }),
      );
    given([])
      .when(create({ certificated: false, hashChoice: ['sha1'] }))
      .thenState((state) => expect(state).toMatchObject({ type: 'upload-link', certificated: false, hashChoice: ['sha1'] }));
  });

  it('requires a note without the forbidden characters, and an expiry in the future', () => {
    given([])
      .when(create({ note: '   ' }))
      .thenThrows(SecureFetchErrors.noteRequired);
    for (const c of ['*', '\\', '/', '<', '>', '?', '"', '|', ':']) {
      given([])
        .when(create({ note: `a${c}b` }))
        .thenThrows(SecureFetchErrors.invalidNote);
    }
    given([])
      .when(create({ expiresAt: '2026-05-04T09:00:00.000Z' }))
      .thenThrows(SecureFetchErrors.invalidExpiry);
    given([])
      .when(create({ expiresAt: '2026-05-05T09:00:00.000Z' }))
      .then(one);
  });

  it('admits uploads while valid and within the size limit; refuses missing, used, revoked, expired and oversized', () => {
    expect(admitCode([])).toBe(SecureFetchErrors.missing.code);
    const link = created({ expiresAt: '2026-05-04T11:00:00.000Z' });
    expect(admitCode(link)).toBe('ok');
    expect(admitCode(link, SECURE_FETCH_FILE_LIMIT + 1)).toBe(SecureFetchErrors.tooLarge.code);
    expect(admitCode(link, SECURE_FETCH_FILE_LIMIT + 1, null)).toBe('ok');
    expect(admitCode(link, 1, SECURE_FETCH_FILE_LIMIT, new Date('2026-05-04T11:00:00.000Z'))).toBe(SecureFetchErrors.invalid.code);
    expect(admitCode(history([create(), cmd('RevokeSecureFetch', {})]))).toBe(SecureFetchErrors.invalid.code);
    expect(admitCode(submitted())).toBe(SecureFetchErrors.used.code);
  });

  it('a submission uses the link once: a retry of the same files is a no-op, other files are refused', () => {
    given(created())
      .when(submit())
      .thenState((state) => expect(state).toMatchObject({ status: 'uploaded', usedAt: '2026-05-04T10:00:00.000Z' }));
    given(submitted())
      .when(submit([receivedFile(1), receivedFile(2)], null))
      .thenNothingHappened();
    given(submitted())
      .when(submit([receivedFile(3)], null))
      .thenThrows(SecureFetchErrors.used);
  });

  it('files sent from folders keep their folders, each a valid folder name', () => {
    expect(relpathFolders(null)).toEqual([]);
    expect(relpathFolders('photos//2024/')).toEqual(['photos', '2024']);
    expect(() => relpathFolders('a.b')).toThrow(expect.objectContaining({ code: 'INVALID_NAME' }));
    expect(() => relpathFolders(Array.from({ length: 33 }, () => 'x').join('/'))).toThrow(expect.objectContaining({ code: 'INVALID_NAME' }));
    const link = created();
    given(link)
      .when(submit([{ ...receivedFile(1), relpath: 'bad:dir' }], null, 'f'))
      .thenThrows(StorageErrors.invalidName);
    expect(stateOf(link).status).toBe('pending');
  });

  it('keeps the metadata only when the link asked for it', () => {
    const metadata = { contactEmail: 'a@b.example', copyrightTypeId: 2, isbn: null, keywords: null, publisher: null, website: null, author: 'Ann' };
    given(created({ includeMetadata: false }))
      .when(submit([receivedFile(1)], null, 'f', metadata))
      .thenState((state) => expect((state as SecureFetchLink).submission?.metadata).toBeNull());
    given(created())
      .when(submit([receivedFile(1)], null, 'f', metadata))
      .thenState((state) => expect((state as SecureFetchLink).submission?.metadata).toEqual(metadata));
  });

  it('pays once: nothing to pay before files arrive; paid becomes active; a failed payment can be tried again', () => {
    given(created())
      .when(startPayment('d'.repeat(64)))
      .thenThrows(SecureFetchErrors.nothingToPay);
    const paying = history([startPayment('d'.repeat(64))], submitted());
    const fail = cmd('FailSecureFetchPayment', { refusedWith: 'INSUFFICIENT_CONFIRMED_TOKENS' });
    given(paying)
      .when(fail)
      .thenState((state) => expect((state as SecureFetchLink).payment).toBeNull());
    const retried = history([fail, startPayment('e'.repeat(64))], paying);
    given(retried)
      .when(startPayment('f'.repeat(64)))
      .thenNothingHappened();
    const record = cmd('RecordSecureFetchPayment', { txId: 'tx-1', amount: 900_000 });
    given(retried)
      .when(record)
      .thenState((state) => expect(state).toMatchObject({ status: 'active', payment: { txId: 'tx-1', canonicalSha256: 'e'.repeat(64) } }));
    given(history([record], retried))
      .when(cmd('RecordSecureFetchPayment', { txId: 'tx-2', amount: 900_000 }))
      .thenNothingHappened();
  });

  it('collects unpaid files once, never paid or paying ones; collected files cannot be paid for', () => {
    given(submitted())
      .when(cmd('CollectUnpaidFiles', {}))
      .then([
        {
          type: 'SecureFetchFilesCollected',
          data: { storageId: 's1', folderId: 'folder-1', itemIds: ['item-1', 'item-2'], collectedAt: '2026-05-04T10:00:00.000Z' },
        },
      ]);
    const collected = history([cmd('CollectUnpaidFiles', {})], submitted());
    given(collected).when(cmd('CollectUnpaidFiles', {})).thenNothingHappened();
    given(collected)
      .when(startPayment('d'.repeat(64), null))
      .thenThrows(SecureFetchErrors.collected);
    given(history([startPayment('d'.repeat(64), null)], submitted()))
      .when(cmd('CollectUnpaidFiles', {}))
      .thenNothingHappened();
    given(created()).when(cmd('CollectUnpaidFiles', {})).thenNothingHappened();
  });

  it('the monthly counter refuses past the plan with the limit in the message data, and counts a fetch once', () => {
    const counter = DeciderSpecification.for(secureFetchCounterDecider);
    const count = (fetchId: string, limit: number | null): CountSecureFetch => ({ type: 'CountSecureFetch', data: { fetchId, limit }, metadata: { now } });
    const counted = (fetchId: string): SecureFetchCounterEvent => ({ type: 'SecureFetchCounted', data: { fetchId, countedAt: now.toISOString() } });
    counter([])
      .when(count('a', 2))
      .then([counted('a')]);
    counter([counted('a')])
      .when(count('a', 2))
      .thenNothingHappened();
    counter([counted('a')])
      .when(count('b', 2))
      .then([counted('b')]);
    counter([counted('a'), counted('b')])
      .when(count('c', 2))
      .thenThrows(SecureFetchErrors.limitReached, { limit: 2 });
    counter([counted('a'), counted('b')])
      .when(count('c', null))
      .then([counted('c')]);
  });
});

describe('certificate and receipt', () => {
  it('canonical JSON sorts keys at every level, keeps array order and leaves out absent values', () => {
    expect(canonicalJson({ b: 1, a: [{ d: 'x', c: null }, 2], e: undefined })).toBe('{"a":[{"c":null,"d":"x"},2],"b":1}');
  });

  it('shows the chosen hashes, created, modified and last opened; metadata only when asked for', () => {
    const link = stateOf(
      history([
        create({ hashChoice: ['md5', 'sha3-512'], includeMetadata: false }),
        submit([{ ...receivedFile(1), modified: '2026-01-01T00:00:00.000Z' }], null, 'f'),
      ]),
    ) as SecureFetchLink;
    const body = certificateBody(link, {
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
    expect(receiptBody(link).items[0]).toEqual({
      name: 'file-1.txt',
      size: 100,
      md5: 'a'.repeat(32),
      sha1: 'b'.repeat(40),
      sha3_512: 'c'.repeat(128),
    });
  });
});
