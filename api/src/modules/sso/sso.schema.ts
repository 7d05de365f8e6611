import { TWO_FACTOR_METHODS } from '@axel/domain';
import { z } from 'zod';
import { UserInfoSchema } from '../accounts/user-info';

export const ErrorSchema = z.object({ code: z.union([z.string(), z.number()]), message: z.string(), data: z.unknown() });
export const TypeParams = z.object({ type: z.string().min(1).max(32) });

export const AuthorizeQuery = z.object({
  /** From the sign-up page, where the terms were accepted: a new address gets an account. */
  termsAccepted: z.enum(['true', 'false']).default('false'),
  locale: z.enum(['en_us', 'es_mx', 'pt_br', 'nl']).default('en_us'),
});

/** The callback's `code` and `state` (first call), or the sign-in's `twoFactorToken` with the second factor's `code`. */
export const SsoBody = z.object({
  code: z.string().min(1).max(4096),
  state: z.string().min(1).max(512).optional(),
  twoFactorToken: z.string().min(1).max(2048).optional(),
});

export const SsoAnswer = z.union([
  z.object({ user: UserInfoSchema }),
  z.object({ twoFactorRequired: z.literal(true), method: z.enum(TWO_FACTOR_METHODS), twoFactorToken: z.string() }),
]);

export const ProvidersAnswer = z.object({ data: z.array(z.object({ type: z.string(), authorizeUrl: z.string() })) });
