import { LOCK_QUERY_MAX_IDS } from '@axel/domain';
import { z } from 'zod';

export const tags = ['storage'];
const id = z.string().min(1).max(64);

export const LockStorageParams = z.object({ id, storageId: id });
export const LockItemParams = z.object({ id, storageId: id, itemId: id });
/** A verification code: six digits from the mail or the authenticator app. */
export const CodeBody = z.object({
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/),
});
/** `itemId=a,b,c`: the items of a page to ask about. */
export const TwoFactorFilesQuery = z.object({
  itemId: z
    .string()
    .max(LOCK_QUERY_MAX_IDS * 65)
    .transform((s) => [
      ...new Set(
        s
          .split(',')
          .map((v) => v.trim())
          .filter(Boolean),
      ),
    ])
    .pipe(z.array(id).max(LOCK_QUERY_MAX_IDS)),
});
