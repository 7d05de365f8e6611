import { assign, fromPromise, setup } from 'xstate';
import { toApiError, type NormalisedError } from '../../api/errors';
import type { FieldErrors } from '../../forms/zodErrors';
import type { CreateRequest, SecureFetch } from './secure-fetch.api';
import { HASH_CHOICES, validateCreate, type CreateValues } from './secure-fetch.validation';

/** Server codes that belong under a field of the dialog, with the field's own message. */
export const CREATE_FIELD_CODES: Record<string, { field: keyof CreateValues; message: string }> = {
  NOTE_REQUIRED: { field: 'note', message: 'secureFetch.validation.noteRequired' },
  INVALID_NOTE: { field: 'note', message: 'secureFetch.validation.noteCharacters' },
  INVALID_EXPIRY: { field: 'expiresAt', message: 'secureFetch.validation.expiryPast' },
};

export const DEFAULT_CREATE_VALUES: CreateValues = {
  note: '',
  expiresAt: '',
  includeMetadata: false,
  certificate: true,
  hashChoice: [...HASH_CHOICES],
};

export interface FetchCreateContext {
  values: CreateValues;
  fieldErrors: FieldErrors;
  error: NormalisedError | null;
  created: SecureFetch | null;
  now: () => Date;
}

export type FetchCreateEvent = { type: 'SUBMIT'; values: CreateValues } | { type: 'RESET' };

/**
 * The create dialog of a Secure Fetch link: the form (spec §5 note rules, expiry, metadata,
 * hash choice, certificate), the call, then the created link shown with its address to copy.
 * A server refusal of a field goes back under that field; any other refusal above the form.
 */
export const fetchCreateMachine = setup({
  types: {
    context: {} as FetchCreateContext,
    events: {} as FetchCreateEvent,
    input: {} as { now?: () => Date } | undefined,
  },
  actors: {
    create: fromPromise<SecureFetch, CreateRequest>(async () => {
      throw new Error('create not provided');
    }),
  },
}).createMachine({
  id: 'fetchCreate',
  context: ({ input }) => ({ values: DEFAULT_CREATE_VALUES, fieldErrors: {}, error: null, created: null, now: input?.now ?? (() => new Date()) }),
  initial: 'editing',
  states: {
    editing: {
      on: {
        SUBMIT: [
          {
            guard: ({ context, event }) => !validateCreate(event.values, context.now()).ok,
            actions: assign(({ context, event }) => {
              const result = validateCreate(event.values, context.now());
              return { values: event.values, fieldErrors: result.ok ? {} : result.fieldErrors, error: null };
            }),
          },
          { target: 'creating', actions: assign(({ event }) => ({ values: event.values, fieldErrors: {}, error: null })) },
        ],
      },
    },
    creating: {
      invoke: {
        src: 'create',
        input: ({ context }) => {
          const result = validateCreate(context.values, context.now());
          if (!result.ok) throw new Error('validated before');
          const v = result.value;
          return {
            note: v.note,
            expiresAt: v.expiresAt,
            includeMetadata: v.includeMetadata,
            certificate: v.certificate,
            hashChoice: v.certificate ? v.hashChoice : [],
          };
        },
        onDone: { target: 'created', actions: assign({ created: ({ event }) => event.output }) },
        onError: {
          target: 'editing',
          actions: assign(({ event }) => {
            const error = toApiError(event.error);
            const known = CREATE_FIELD_CODES[error.code];
            return known ? { fieldErrors: { [known.field]: known.message }, error: null } : { fieldErrors: {}, error: error.toJSON() };
          }),
        },
      },
    },
    created: {
      on: { RESET: { target: 'editing', actions: assign({ values: DEFAULT_CREATE_VALUES, created: null, fieldErrors: {}, error: null }) } },
    },
  },
});
