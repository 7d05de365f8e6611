import { assign, fromPromise, setup } from 'xstate';
import { toApiError, type NormalisedError } from '../../api/errors';
import type { FieldErrors } from '../../forms/zodErrors';
import { checkReceipt, receiptAllMatch, type LocalFile, type Receipt, type ReceiptCheck } from './receipt';
import type { LinkSummary, SubmittedFile } from './secure-fetch.api';
import { EMPTY_METADATA, validateMetadata, type Metadata, type MetadataValues } from './secure-fetch.validation';
import type { RefusedFile } from './upload-rules';

/** A file whose upload finished, with what the page needs to name it and check its hashes. */
export interface FinishedFile {
  file: SubmittedFile;
  /** Path shown and compared with the receipt (folder path and name). */
  displayName: string;
}

export interface FetchUploadContext {
  linkId: string;
  link: LinkSummary | null;
  /** Why the link cannot be used (missing, invalid, used, expired, revoked): the page shows only this. */
  unavailable: NormalisedError | null;
  metadata: MetadataValues;
  fieldErrors: FieldErrors;
  /** A problem with the submission as a whole (nothing uploaded yet, uploads unfinished, a server refusal). */
  error: NormalisedError | null;
  files: FinishedFile[];
  receipt: Receipt | null;
  checks: ReceiptCheck[] | null;
  /** The receipt's Ed25519 signature, checked in the browser against the server's published key. */
  signature: SignatureCheck | null;
  /** The files last chosen that the page did not take (over the size limit, a refused name). */
  refused: RefusedFile[];
}

export type SignatureCheck = 'valid' | 'invalid' | 'unchecked';

export type FetchUploadEvent =
  | { type: 'METADATA.CHANGE'; field: keyof MetadataValues; value: string }
  | { type: 'SUBMIT'; files: FinishedFile[]; unfinished: number }
  /** Files were chosen: `added` of them went to the upload list, `refused` did not. */
  | { type: 'FILES.CHOSEN'; added: number; refused: RefusedFile[] }
  | { type: 'REFUSED.DISMISS' }
  | { type: 'RETRY' };

/** Client-side codes of the submission step. */
export const NOTHING_UPLOADED = 'SECURE_FETCH_NOTHING_UPLOADED';
export const UPLOADS_UNFINISHED = 'SECURE_FETCH_UPLOADS_UNFINISHED';

/**
 * Server codes after which the link can no longer be used: the page leaves the form for the
 * message (a link used meanwhile by another tab, revoked or expired while the page was open).
 */
export const LINK_GONE_CODES = new Set(['SECURE_FETCH_MISSING', 'SECURE_FETCH_INVALID', 'SECURE_FETCH_USED']);

const clientError = (code: string, message: string): NormalisedError => ({ code, message, data: null });

/**
 * The anonymous upload page of a Secure Fetch link: the link is looked up (or its problem shown);
 * files upload as they are dropped (the page's upload queue); the sender fills the metadata the
 * link asks for; submit sends the finished uploads and the metadata; the browser then compares
 * the server's receipt with the hashes it computed itself and checks the receipt's signature, and
 * the page says it was sent.
 */
export const fetchUploadMachine = setup({
  types: {
    context: {} as FetchUploadContext,
    events: {} as FetchUploadEvent,
    input: {} as { linkId: string },
  },
  actors: {
    loadLink: fromPromise<LinkSummary, { linkId: string }>(async () => {
      throw new Error('loadLink not provided');
    }),
    submit: fromPromise<Receipt, { linkId: string; files: SubmittedFile[]; metadata?: Partial<Metadata> }>(async () => {
      throw new Error('submit not provided');
    }),
    /** The browser's own hashes of the sent files (computed while they uploaded). */
    localHashes: fromPromise<LocalFile[], { files: FinishedFile[] }>(async () => {
      throw new Error('localHashes not provided');
    }),
    receiptSignature: fromPromise<boolean, { receipt: Receipt }>(async () => {
      throw new Error('receiptSignature not provided');
    }),
  },
  guards: {
    nothingUploaded: ({ event }) => event.type === 'SUBMIT' && event.files.length === 0,
    uploadsUnfinished: ({ event }) => event.type === 'SUBMIT' && event.unfinished > 0,
    metadataInvalid: ({ context }) => context.link?.includeMetadata === true && !validateMetadata(context.metadata).ok,
  },
}).createMachine({
  id: 'fetchUpload',
  context: ({ input }) => ({
    linkId: input.linkId,
    link: null,
    unavailable: null,
    metadata: EMPTY_METADATA,
    fieldErrors: {},
    error: null,
    files: [],
    receipt: null,
    checks: null,
    signature: null,
    refused: [],
  }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        src: 'loadLink',
        input: ({ context }) => ({ linkId: context.linkId }),
        onDone: [
          // A link already used answers with its status: it takes no more files.
          {
            guard: ({ event }) => event.output.status !== 'pending',
            target: 'unavailable',
            actions: assign({ unavailable: clientError('SECURE_FETCH_USED', 'This Secure Fetch link has already been used') }),
          },
          { target: 'collecting', actions: assign({ link: ({ event }) => event.output }) },
        ],
        onError: { target: 'unavailable', actions: assign({ unavailable: ({ event }) => toApiError(event.error).toJSON() }) },
      },
    },
    unavailable: { type: 'final' },
    collecting: {
      on: {
        'FILES.CHOSEN': {
          // "Add at least one file" is answered once a file is added.
          actions: assign(({ context, event }) => ({
            refused: event.refused,
            error: event.added > 0 && context.error?.code === NOTHING_UPLOADED ? null : context.error,
          })),
        },
        'REFUSED.DISMISS': { actions: assign({ refused: [] }) },
        'METADATA.CHANGE': {
          actions: assign(({ context, event }) => {
            const { [event.field]: _cleared, ...fieldErrors } = context.fieldErrors;
            return { metadata: { ...context.metadata, [event.field]: event.value }, fieldErrors };
          }),
        },
        SUBMIT: [
          { guard: 'nothingUploaded', actions: assign({ error: clientError(NOTHING_UPLOADED, 'Add at least one file') }) },
          { guard: 'uploadsUnfinished', actions: assign({ error: clientError(UPLOADS_UNFINISHED, 'Wait until every upload has finished') }) },
          {
            guard: 'metadataInvalid',
            actions: assign(({ context }) => {
              const result = validateMetadata(context.metadata);
              return { fieldErrors: result.ok ? {} : result.fieldErrors, error: null };
            }),
          },
          { target: 'submitting', actions: assign(({ event }) => ({ files: event.files, error: null, fieldErrors: {} })) },
        ],
      },
    },
    submitting: {
      invoke: {
        src: 'submit',
        input: ({ context }) => {
          const metadata = context.link?.includeMetadata ? validateMetadata(context.metadata) : null;
          return { linkId: context.linkId, files: context.files.map((f) => f.file), metadata: metadata?.ok ? metadata.value : undefined };
        },
        onDone: { target: 'checking', actions: assign({ receipt: ({ event }) => event.output }) },
        onError: [
          {
            guard: ({ event }) => LINK_GONE_CODES.has(toApiError(event.error).code),
            target: 'unavailable',
            actions: assign({ unavailable: ({ event }) => toApiError(event.error).toJSON() }),
          },
          { target: 'collecting', actions: assign({ error: ({ event }) => toApiError(event.error).toJSON() }) },
        ],
      },
    },
    checking: {
      invoke: {
        src: 'localHashes',
        input: ({ context }) => ({ files: context.files }),
        onDone: {
          target: 'signature',
          actions: assign({ checks: ({ context, event }) => (context.receipt ? checkReceipt(context.receipt, event.output) : []) }),
        },
        // The files were received; only the browser's own check could not be made.
        onError: { target: 'signature', actions: assign({ checks: null }) },
      },
    },
    signature: {
      invoke: {
        src: 'receiptSignature',
        input: ({ context }) => ({ receipt: context.receipt! }),
        onDone: { target: 'sent', actions: assign({ signature: ({ event }) => (event.output ? 'valid' : 'invalid') }) },
        onError: { target: 'sent', actions: assign({ signature: 'unchecked' }) },
      },
    },
    sent: { type: 'final' },
  },
});

/** What the page says of the receipt: it matches only when signed by the server and naming the hashes the browser computed. */
export const receiptVerdict = (checks: readonly ReceiptCheck[] | null, signature: SignatureCheck | null): 'match' | 'mismatch' | 'unchecked' => {
  if (signature === 'invalid' || (checks !== null && !receiptAllMatch(checks))) return 'mismatch';
  if (checks === null || signature !== 'valid') return 'unchecked';
  return 'match';
};
