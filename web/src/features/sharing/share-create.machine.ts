import { assign, fromPromise, setup } from 'xstate';
import { toApiError, type NormalisedError } from '../../api/errors';
import { splitServerError } from '../../forms/serverErrors';
import type { FieldErrors } from '../../forms/zodErrors';
import { planUsage, type PlanUsage } from './share-filters';
import type { Share, ShareInput } from './sharing.types';
import { emptyShareForm, validateShareForm, type ShareFormValues } from './sharing.validation';

/** Server refusals that belong under one field of the share dialog (docs/api-sharing.md). */
export const SHARE_FIELD_CODES: Record<string, keyof ShareFormValues> = {
  TOO_MANY_RECIPIENTS: 'recipients',
  OWN_EMAIL_RECIPIENT: 'recipients',
  DUPLICATE_RECIPIENT: 'recipients',
  INVALID_RECIPIENT: 'recipients',
  INVALID_TITLE: 'title',
  PROFANITY: 'title',
  INVALID_NOTE: 'description',
  INVALID_SHARE_PASSWORD: 'password',
  INVALID_EXPIRY: 'expiresOn',
};

export interface ShareCreateInput {
  itemIds: string[];
  title: string;
  ownEmail: string;
  now?: () => Date;
}

/** The month's shares as the plan counts them (GET /shares/user-plan-count/). */
export interface PlanCount {
  count: number;
  limit?: number | null;
}

/** The refusal the server gives once the month's shares are used up, said before the form is sent. */
const limitReachedError = (limit: number): NormalisedError => ({
  code: 'SHARE_LIMIT_REACHED',
  message: `You have used all ${limit} shares of your plan this month`,
  data: { limit },
});

export interface ShareCreateContext {
  itemIds: string[];
  ownEmail: string;
  /** The month's shares against the plan, once known: said up front, and no form is sent past the limit. */
  usage: PlanUsage | null;
  values: ShareFormValues;
  fieldErrors: FieldErrors;
  error: NormalisedError | null;
  share: Share | null;
  now: () => Date;
}

export type ShareCreateEvent = { type: 'SUBMIT'; values: ShareFormValues } | { type: 'EDIT' };

const submitted = (event: ShareCreateEvent) => (event.type === 'SUBMIT' ? event.values : null);

/**
 * Creating a share from the file browser's selection: the month's shares against the plan are
 * known up front (past the limit nothing is sent); the §5 rules are checked before anything is
 * sent (messages under the fields); the server's refusals of a field come back under that field,
 * any other refusal (the monthly limit, a file too large, an empty folder) above the form; once
 * created the dialog shows the link.
 */
export const shareCreateMachine = setup({
  types: {
    context: {} as ShareCreateContext,
    events: {} as ShareCreateEvent,
    input: {} as ShareCreateInput,
  },
  actors: {
    create: fromPromise<Share, ShareInput>(async () => {
      throw new Error('create actor not provided');
    }),
    loadUsage: fromPromise<PlanCount>(async () => {
      throw new Error('loadUsage actor not provided');
    }),
  },
  guards: {
    limitReached: ({ context }) => context.usage?.reached === true,
    valid: ({ context, event }) => {
      const values = submitted(event);
      return values !== null && validateShareForm(values, context.ownEmail, context.now()).ok;
    },
  },
}).createMachine({
  id: 'shareCreate',
  context: ({ input }) => ({
    itemIds: input.itemIds,
    ownEmail: input.ownEmail,
    usage: null,
    values: emptyShareForm(input.title),
    fieldErrors: {},
    error: null,
    share: null,
    now: input.now ?? (() => new Date()),
  }),
  initial: 'edit',
  states: {
    edit: {
      // asked again each time the form is back (a refusal may mean another share used the last one)
      invoke: {
        src: 'loadUsage',
        onDone: { actions: assign({ usage: ({ event }) => planUsage(event.output.count, event.output.limit) }) },
        // without the count the form still works: the server decides the limit anyway
        onError: {},
      },
      on: {
        SUBMIT: [
          {
            guard: 'limitReached',
            actions: assign(({ context, event }) => ({ values: event.values, fieldErrors: {}, error: limitReachedError(context.usage?.limit ?? 0) })),
          },
          { guard: 'valid', target: 'creating', actions: assign({ values: ({ event }) => event.values, fieldErrors: {}, error: null }) },
          {
            actions: assign(({ context, event }) => {
              const result = validateShareForm(event.values, context.ownEmail, context.now());
              return { values: event.values, fieldErrors: result.ok ? {} : result.fieldErrors, error: null };
            }),
          },
        ],
      },
    },
    creating: {
      invoke: {
        src: 'create',
        input: ({ context }) => {
          const result = validateShareForm(context.values, context.ownEmail, context.now());
          if (!result.ok) throw new Error('invalid values reached creating');
          return { itemIds: context.itemIds, ...result.value };
        },
        onDone: { target: 'created', actions: assign({ share: ({ event }) => event.output }) },
        onError: {
          target: 'edit',
          actions: assign(({ event }) => {
            const { error, fieldErrors } = splitServerError(event.error, SHARE_FIELD_CODES);
            return { fieldErrors, error: error ?? (Object.keys(fieldErrors).length ? null : toApiError(event.error).toJSON()) };
          }),
        },
      },
    },
    created: { type: 'final' },
  },
});
