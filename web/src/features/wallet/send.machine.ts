import { assign, fromPromise, setup } from 'xstate';
import { toApiError, type NormalisedError } from '../../api/errors';
import type { FieldErrors } from '../../forms/zodErrors';
import { splitServerError } from '../../forms/serverErrors';
import { DEFAULT_MINIMUM_UNITS, validateSend, type SendValues } from './wallet.validation';
import type { BaseUnits } from './amounts';
import type { SendRequest } from './wallet.types';

/**
 * Server codes that mean "this field is wrong, nothing was sent": the form shows them under the
 * field instead of failing the send.
 */
export const SEND_FIELD_CODES: Record<string, keyof SendValues> = {
  WALLET_INVALID_ADDRESS: 'address',
  WALLET_INVALID_AMOUNT: 'amount',
  WALLET_BELOW_MINIMUM: 'amount',
  WALLET_INSUFFICIENT_FUNDS: 'amount',
};

export interface SendContext {
  values: SendValues;
  /** The values the current idempotency key was made for. */
  keyFor: SendValues | null;
  idempotencyKey: string | null;
  minimumUnits: BaseUnits;
  /** The most a send may move now, as the wallet last said; null while unknown. */
  sendableUnits: BaseUnits | null;
  fieldErrors: FieldErrors;
  error: NormalisedError | null;
  /** What the server answered for the completed send. */
  result: unknown;
  attempts: number;
  newKey: () => string;
}

export type SendEvent =
  | { type: 'SUBMIT'; values: SendValues }
  | { type: 'CONFIRM' }
  | { type: 'BACK' }
  | { type: 'RETRY' }
  | { type: 'EDIT' }
  | { type: 'NEW' }
  | { type: 'SET_MINIMUM'; units: BaseUnits }
  | { type: 'SET_SENDABLE'; units: BaseUnits | null };

export interface SendInput {
  values?: Partial<SendValues>;
  minimumUnits?: BaseUnits;
  sendableUnits?: BaseUnits | null;
  newKey?: () => string;
}

const EMPTY: SendValues = { address: '', amount: '', note: '' };
const sameValues = (a: SendValues | null, b: SendValues) => a !== null && a.address === b.address && a.amount === b.amount && a.note === b.note;
const submitted = (event: SendEvent) => (event.type === 'SUBMIT' ? event.values : EMPTY);

/**
 * Sending AXEL: edit -> confirm -> sending -> sent, or failed. Every send carries an idempotency
 * key made when the values are confirmed; a retry after a failure (a timeout, a lost answer, the
 * unconfirmed-tokens refusal) sends the same key, so the server pays at most once however often
 * the user presses retry. Only changed values get a new key. Refusals of a field come back to the
 * form under that field.
 */
export const sendMachine = setup({
  types: {
    context: {} as SendContext,
    events: {} as SendEvent,
    input: {} as SendInput,
  },
  actors: {
    send: fromPromise<unknown, SendRequest>(async () => {
      throw new Error('send actor not provided');
    }),
  },
  actions: {
    /** The balance changed (or may have): the page schedules its refresh. */
    sent: () => {},
  },
  guards: {
    valuesValid: ({ context, event }) => validateSend(submitted(event), context.minimumUnits, context.sendableUnits).ok,
    refusedOnAField: ({ event }) => Object.keys(splitServerError((event as { error?: unknown }).error, SEND_FIELD_CODES).fieldErrors).length > 0,
  },
}).createMachine({
  id: 'send',
  context: ({ input }) => ({
    values: { ...EMPTY, ...input.values },
    keyFor: null,
    idempotencyKey: null,
    minimumUnits: input.minimumUnits ?? DEFAULT_MINIMUM_UNITS,
    sendableUnits: input.sendableUnits ?? null,
    fieldErrors: {},
    error: null,
    result: null,
    attempts: 0,
    newKey: input.newKey ?? (() => crypto.randomUUID()),
  }),
  on: {
    SET_MINIMUM: { actions: assign({ minimumUnits: ({ event }) => event.units }) },
    SET_SENDABLE: { actions: assign({ sendableUnits: ({ event }) => event.units }) },
  },
  initial: 'edit',
  states: {
    edit: {
      on: {
        SUBMIT: [
          {
            guard: 'valuesValid',
            target: 'confirm',
            actions: assign(({ context, event }) => {
              const result = validateSend(event.values, context.minimumUnits, context.sendableUnits);
              const values = result.ok ? result.value : event.values;
              const keep = context.idempotencyKey !== null && sameValues(context.keyFor, values);
              return {
                values,
                keyFor: values,
                idempotencyKey: keep ? context.idempotencyKey : context.newKey(),
                fieldErrors: {},
                error: null,
              };
            }),
          },
          {
            actions: assign(({ context, event }) => {
              const result = validateSend(event.values, context.minimumUnits, context.sendableUnits);
              return { values: event.values, fieldErrors: result.ok ? {} : result.fieldErrors, error: null };
            }),
          },
        ],
      },
    },
    confirm: {
      on: {
        CONFIRM: 'sending',
        BACK: 'edit',
      },
    },
    sending: {
      entry: assign({ attempts: ({ context }) => context.attempts + 1, error: null }),
      invoke: {
        src: 'send',
        input: ({ context }) => ({ ...context.values, idempotencyKey: context.idempotencyKey ?? '' }),
        onDone: { target: 'sent', actions: [assign({ result: ({ event }) => event.output }), 'sent'] },
        onError: [
          {
            guard: 'refusedOnAField',
            target: 'edit',
            actions: assign(({ event }) => ({ fieldErrors: splitServerError(event.error, SEND_FIELD_CODES).fieldErrors, error: null })),
          },
          { target: 'failed', actions: assign({ error: ({ event }) => toApiError(event.error).toJSON() }) },
        ],
      },
    },
    sent: {
      on: {
        NEW: {
          target: 'edit',
          actions: assign({ values: EMPTY, keyFor: null, idempotencyKey: null, fieldErrors: {}, error: null, result: null, attempts: 0 }),
        },
      },
    },
    failed: {
      on: {
        RETRY: 'sending',
        EDIT: { target: 'edit' },
      },
    },
  },
});
