import { emailSchema, optionalEmailSchema, phoneSchema } from '@axel/domain/accounts/accounts.validation';
import { z } from 'zod';
import type { FieldErrors } from '../../forms/zodErrors';
import { validate } from '../../forms/zodErrors';
import { MINIMUM_SEND } from '@axel/domain/wallet/amount';
import { formatAxel, parseAxel, type BaseUnits } from './amounts';
import type { Contact, ContactInput } from './wallet.types';

/** The specification: an address (and a contact's public key) is exactly 34 letters or digits. */
export const ADDRESS_LENGTH = 34;
const ADDRESS_RE = /^[A-Za-z0-9]{34}$/;
/** The domain's minimum send, until the chain reports its own. */
export const DEFAULT_MINIMUM_UNITS: BaseUnits = MINIMUM_SEND;

export const addressSchema = z.string({ error: 'validation.required' }).trim().min(1, 'validation.required').regex(ADDRESS_RE, 'wallet.validation.address');

export interface SendValues {
  address: string;
  amount: string;
  note: string;
}

/** The §5 send rules, with the minimum amount the wallet reported (base units). */
export const sendSchema = (minimumUnits: BaseUnits) =>
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
      // The API takes the canonical spelling: "1.50" goes out as "1.5".
      .transform((v) => formatAxel(parseAxel(v) ?? 0)),
    note: z.string().trim().max(255, 'validation.tooLong').default(''),
  });

export const validateSend = (values: SendValues, minimumUnits: BaseUnits = DEFAULT_MINIMUM_UNITS) => validate(sendSchema(minimumUnits), values);

/** What a contact must not collide with: the signed-in user and the other contacts. */
export interface ContactContext {
  ownEmail: string;
  ownKeys: readonly string[];
  others: readonly Contact[];
}

const publicKeySchema = z.string({ error: 'validation.required' }).trim().min(1, 'validation.required').length(ADDRESS_LENGTH, 'validation.publicKeyLength')
  .regex(/^[A-Za-z0-9]+$/, 'validation.publicKeyLength');

export const contactSchema = z.object({
  nickname: z.string({ error: 'validation.required' }).trim().min(1, 'validation.required').max(100, 'validation.tooLong'),
  firstName: z.string().trim().max(100, 'validation.tooLong').optional(),
  middleName: z.string().trim().max(100, 'validation.tooLong').optional(),
  lastName: z.string().trim().max(100, 'validation.tooLong').optional(),
  email: emailSchema,
  email2: optionalEmailSchema,
  phone: phoneSchema,
  phone2: phoneSchema,
  publicKey: publicKeySchema,
});

/** The §5 contact rules: formats first, then "not your own" and "no duplicate". */
export const validateContact = (input: Record<string, string>, ctx: ContactContext): { ok: true; value: ContactInput } | { ok: false; fieldErrors: FieldErrors } => {
  const parsed = validate(contactSchema, input);
  if (!parsed.ok) return parsed;
  const value = parsed.value;
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
  return {
    ok: true,
    value: {
      nickname: value.nickname,
      firstName: value.firstName || null,
      middleName: value.middleName || null,
      lastName: value.lastName || null,
      email,
      email2: value.email2,
      phone: value.phone,
      phone2: value.phone2,
      publicKey: key,
    },
  };
};
