import { assertNever, type Decider } from '../shared/decider';
import { CommonErrors, DomainError } from '../shared/errors';
import { assertValidName } from '../storage/storage.decide';
import { FORBIDDEN_NAME_CHARACTERS } from '../storage/storage.names';
import type { CountSecureFetch, SecureFetchCommand } from './secure-fetch.commands';
import { SecureFetchErrors } from './secure-fetch.errors';
import type { SecureFetchCounterEvent, SecureFetchEvent } from './secure-fetch.events';
import {
  evolveSecureFetch,
  initialSecureFetchState,
  isLink,
  linkProblem,
  type LinkProblem,
  type SecureFetchLink,
  type SecureFetchState,
} from './secure-fetch.state';

export const NOTE_MAX_LENGTH = 1000;
/** Without the unlimited-shared-file-size permission each file is at most 10 MiB (spec §6). */
export const SECURE_FETCH_FILE_LIMIT = 10 * 1024 * 1024;
/** Unpaid received files are collected after 2 hours (spec §9). */
export const UNPAID_COLLECTION_MS = 2 * 60 * 60 * 1000;

/** Folders a file was sent from under the link's folder, at most this deep. */
export const MAX_RELPATH_DEPTH = 32;

/** The folders of a relative path (`photos/2024` -> [`photos`, `2024`]); each must be a valid folder name. */
export const relpathFolders = (relpath: string | null): string[] => {
  const folders = (relpath ?? '').split('/').filter((s) => s !== '');
  if (folders.length > MAX_RELPATH_DEPTH) throw new DomainError(SecureFetchErrors.invalidRelpath);
  for (const folder of folders) assertValidName(folder, 'folder');
  return folders;
};

/** Spec §5: a required note cannot be empty and must not contain the forbidden characters. */
export const checkNote = (note: string): void => {
  if (note.trim() === '') throw new DomainError(SecureFetchErrors.noteRequired);
  if (FORBIDDEN_NAME_CHARACTERS.some((c) => note.includes(c)) || note.length > NOTE_MAX_LENGTH) throw new DomainError(SecureFetchErrors.invalidNote);
};

const PROBLEM_ERRORS: Record<LinkProblem, (typeof SecureFetchErrors)[keyof typeof SecureFetchErrors]> = {
  missing: SecureFetchErrors.missing,
  used: SecureFetchErrors.used,
  revoked: SecureFetchErrors.invalid,
  expired: SecureFetchErrors.invalid,
};

/** The link, when it can take files now; else the spec's error (missing, invalid or used). */
export const openLink = (state: SecureFetchState, now: Date): SecureFetchLink => {
  const problem = linkProblem(state, now);
  if (problem) throw new DomainError(PROBLEM_ERRORS[problem]);
  return state as SecureFetchLink;
};

/**
 * The gate's decision on a tus creation through the link: the link can take files and the file is
 * within the owner's per-file limit (the owner's quota is decided by the storage).
 */
export const admitUpload = (state: SecureFetchState, request: { size: number; maxSize: number | null }, now: Date): SecureFetchLink => {
  const link = openLink(state, now);
  if (request.maxSize !== null && request.size > request.maxSize) throw new DomainError(SecureFetchErrors.tooLarge, { maxSize: request.maxSize });
  return link;
};

const owned = (state: SecureFetchState): SecureFetchLink => {
  if (!isLink(state)) throw new DomainError(SecureFetchErrors.notFound);
  return state;
};

/** What stands between the link and pay and pin, or null. */
export const payableLink = (state: SecureFetchState): SecureFetchLink => {
  const link = owned(state);
  if (!link.submission) throw new DomainError(SecureFetchErrors.nothingToPay);
  if (link.collectedAt) throw new DomainError(SecureFetchErrors.collected);
  return link;
};

const sameFiles = (a: readonly { uploadId: string }[], b: readonly { uploadId: string }[]) =>
  a.length === b.length && a.every((f, i) => f.uploadId === b[i]!.uploadId);

export const decideSecureFetch = (command: SecureFetchCommand, state: SecureFetchState): SecureFetchEvent[] => {
  const now = command.metadata.now;
  const at = now.toISOString();
  switch (command.type) {
    case 'CreateSecureFetch': {
      const d = command.data;
      if (isLink(state)) {
        if (state.linkId === d.linkId) return [];
        throw new DomainError(CommonErrors.conflict);
      }
      checkNote(d.note);
      if (d.expiresAt !== null && new Date(d.expiresAt).getTime() <= now.getTime()) throw new DomainError(SecureFetchErrors.invalidExpiry);
      const hashChoice = d.hashChoice.length ? [...new Set(d.hashChoice)] : (['md5', 'sha1', 'sha3-512'] as const);
      return [
        {
          type: 'SecureFetchCreated',
          data: {
            fetchId: d.fetchId,
            linkId: d.linkId,
            ownerId: d.ownerId,
            type: d.certificated ? 'secure-certificate-fetch' : 'upload-link',
            note: d.note.trim(),
            expiresAt: d.expiresAt,
            includeMetadata: d.includeMetadata,
            hashChoice: [...hashChoice],
            createdAt: at,
          },
        },
      ];
    }
    case 'RevokeSecureFetch': {
      const link = owned(state);
      return link.revokedAt ? [] : [{ type: 'SecureFetchRevoked', data: { revokedAt: at } }];
    }
    case 'SubmitSecureFetch': {
      const d = command.data;
      // a retried submission of the same uploads is answered by what was recorded
      if (isLink(state) && state.submission && sameFiles(state.submission.files, d.files)) return [];
      const link = openLink(state, now);
      if (d.files.length === 0) throw new DomainError(SecureFetchErrors.noFiles);
      for (const f of d.files) {
        assertValidName(f.name, 'file');
        relpathFolders(f.relpath);
        if (d.maxSize !== null && f.size > d.maxSize) throw new DomainError(SecureFetchErrors.tooLarge, { maxSize: d.maxSize });
      }
      return [
        {
          type: 'SecureFetchSubmitted',
          data: {
            ownerId: link.ownerId,
            storageId: d.storageId,
            folderId: d.folderId,
            itemIds: d.files.map((f) => f.itemId),
            totalSize: d.files.reduce((sum, f) => sum + f.size, 0),
            files: d.files.map((f) => ({ ...f })),
            metadata: link.includeMetadata ? d.metadata : null,
            submittedAt: at,
          },
        },
      ];
    }
    case 'OpenSecureFetchItem': {
      const link = owned(state);
      if (!link.submission?.itemIds.includes(command.data.itemId) || link.collectedAt) throw new DomainError(SecureFetchErrors.itemNotFound);
      return [{ type: 'SecureFetchItemOpened', data: { itemId: command.data.itemId, at } }];
    }
    case 'StartSecureFetchPayment': {
      const link = payableLink(state);
      // a payment under way or done keeps its certificate: a retry pays for the same one
      if (link.payment) return [];
      const d = command.data;
      return [
        {
          type: 'SecureFetchPaymentStarted',
          data: {
            certificateId: d.certificateId,
            issuedAt: at,
            lastOpened: { ...d.lastOpened },
            canonicalSha256: d.canonicalSha256,
            ...(d.cids ? { cids: { ...d.cids } } : {}),
          },
        },
      ];
    }
    case 'FailSecureFetchPayment': {
      const link = owned(state);
      if (!link.payment || link.payment.txId) return [];
      return [{ type: 'SecureFetchPaymentFailed', data: { refusedWith: command.data.refusedWith, at } }];
    }
    case 'RecordSecureFetchPayment': {
      const link = owned(state);
      if (!link.payment) throw new DomainError(SecureFetchErrors.nothingToPay);
      if (link.payment.txId) return [];
      return [{ type: 'SecureFetchPaid', data: { txId: command.data.txId, amount: command.data.amount, paidAt: at } }];
    }
    case 'CollectUnpaidFiles': {
      // paid, paying, never used or already collected: nothing to collect
      if (!isLink(state) || !state.submission || state.payment || state.collectedAt) return [];
      const { storageId, folderId, itemIds } = state.submission;
      return [{ type: 'SecureFetchFilesCollected', data: { storageId, folderId, itemIds: [...itemIds], collectedAt: at } }];
    }
    case 'ForgetSecureFetch':
      return isLink(state) ? [{ type: 'SecureFetchForgotten', data: { at } }] : [];
    default:
      return assertNever(command);
  }
};

export const secureFetchDecider: Decider<SecureFetchCommand, SecureFetchEvent, SecureFetchState> = {
  decide: decideSecureFetch,
  evolve: evolveSecureFetch,
  initialState: initialSecureFetchState,
};

/** The fetch ids counted on one user's month. */
export interface SecureFetchCounterState {
  readonly counted: readonly string[];
}

/**
 * The monthly counter: the plan's maxCountPerPeriod for secure-fetch, decided on one stream per user
 * and month appended with its expected revision, so parallel creates cannot pass it together.
 */
export const secureFetchCounterDecider: Decider<CountSecureFetch, SecureFetchCounterEvent, SecureFetchCounterState> = {
  initialState: () => ({ counted: [] }),
  decide(command, state) {
    const { fetchId, limit } = command.data;
    if (state.counted.includes(fetchId)) return [];
    if (limit !== null && state.counted.length >= limit) throw new DomainError(SecureFetchErrors.limitReached, { limit });
    return [{ type: 'SecureFetchCounted', data: { fetchId, countedAt: command.metadata.now.toISOString() } }];
  },
  evolve(state, event) {
    return event.type === 'SecureFetchCounted' ? { counted: [...state.counted, event.data.fetchId] } : state;
  },
};
