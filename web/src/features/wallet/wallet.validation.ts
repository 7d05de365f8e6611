import { z } from 'zod';
import type { FieldErrors } from '../../forms/zodErrors';
import { validate } from '../../forms/zodErrors';
import { MINIMUM_SEND } from '@axel/domain/wallet/amount';
import { contactFieldsFrom } from '@axel/domain/wallet/contacts';
import { isWalletAddress } from '@axel/domain/wallet/wallet';
import { formatAxel, parseAxel, type BaseUnits } from './amounts';
import type { Contact, ContactInput } from './wallet.types';

/** The domain's minimum send, until the chain reports its own. */
export const DEFAULT_MINIMUM_UNITS: BaseUnits = MINIMUM_SEND;

export const addressSchema = z
  .string({ error: 'validation.required' })
  .trim()
  .min(1, 'validation.required')
  .refine(isWalletAddress, 'wallet.validation.address');

export interface SendValues {
  address: string;
  amount: string;
  note: string;
}

/**
 * The §5 send rules, with the minimum amount the wallet reported and, when known, the most a send
 * may move now (base units): a send beyond it is refused here, before the confirmation step.
 */
export const sendSchema = (minimumUnits: BaseUnits, sendableUnits: BaseUnits | null = null) =>
  z.object({
    address: addressSchema,
    amount: z
      .string({ error: 'validation.required' })
      .trim()
      .min(1, 'validation.required')
      .refine((v) => {
        const units = parseAxel(v);
        return units !== null && units > 0;
      }, 'wallet.validation.amount')
      .refine((v) => (parseAxel(v) ?? 0) <= 0 || (parseAxel(v) ?? 0) >= minimumUnits, 'wallet.validation.belowMinimum')
      .refine((v) => sendableUnits === null || (parseAxel(v) ?? 0) < minimumUnits || (parseAxel(v) ?? 0) <= sendableUnits, 'wallet.validation.aboveSendable')
      // The API takes the canonical spelling: "1.50" goes out as "1.5".
      .transform((v) => formatAxel(parseAxel(v) ?? 0)),
    note: z.string().trim().max(255, 'validation.tooLong').default(''),
  });

export const validateSend = (values: SendValues, minimumUnits: BaseUnits = DEFAULT_MINIMUM_UNITS, sendableUnits: BaseUnits | null = null) =>
  validate(sendSchema(minimumUnits, sendableUnits), values);

/** What a contact must not collide with: the signed-in user and the other contacts. */
export interface ContactContext {
  ownEmail: string;
  ownKeys: readonly string[];
  others: readonly Contact[];
}

/** The §5 contact rules: the domain's field checks first, then "not your own" and "no duplicate" against what this screen knows. */
export const validateContact = (
  input: Record<string, string>,
  ctx: ContactContext,
): { ok: true; value: ContactInput } | { ok: false; fieldErrors: FieldErrors } => {
  let value: ContactInput;
  try {
    value = contactFieldsFrom(input);
  } catch (error) {
    const fields = (error as { data?: { fields?: FieldErrors } }).data?.fields;
    if (fields) return { ok: false, fieldErrors: fields };
    throw error;
  }
  const fieldErrors: FieldErrors = {};
  const email = value.email.toLowerCase();
  const key = value.publicKey;
  const own = ctx.ownEmail.toLowerCase();
  if (email === own) fieldErrors.email = 'wallet.validation.ownEmail';
  else if (ctx.others.some((c) => c.email.toLowerCase() === email)) fieldErrors.email = 'wallet.validation.duplicateEmail';
  if (value.email2 === own) fieldErrors.email2 = 'wallet.validation.ownEmail';
  if (ctx.ownKeys.includes(key)) fieldErrors.publicKey = 'wallet.validation.ownKey';
  else if (ctx.others.some((c) => c.publicKey === key)) fieldErrors.publicKey = 'wallet.validation.duplicateKey';
  if (Object.keys(fieldErrors).length > 0) return { ok: false, fieldErrors };
  return { ok: true, value };
};
