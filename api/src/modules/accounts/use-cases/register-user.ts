import { normalizeEmail, type Locale, type Role } from '@axel/domain';
import { newId } from '@axel/platform';
import type { AppContext } from '../../../context';
import { failpoint } from '../../../failpoints';
import type { RequestMeta } from '../../../http/request-meta';
import { hashPassword } from '../passwords';
import { appLink, linkToken, mailUser } from './account-mail';
import { commandContext, releaseEmail, reserveEmail, runUser, userCommand } from './account-store';

/**
 * Signs a user up: reserves the address, then registers the account and mails the confirmation
 * link. Staff create accounts that need no confirmation (`staff`), as the first start does.
 */
export const registerUser = async (
  ctx: AppContext,
  input: { email: string; password: string; locale: Locale; role?: Role; termsAccepted: boolean },
  meta: RequestMeta,
  staff?: { id: string },
): Promise<{ userId: string; position: number }> => {
  const userId = newId();
  const cc = commandContext(meta, staff ? { id: staff.id, kind: 'staff' } : { id: userId, kind: 'anonymous' });
  const passwordHash = await hashPassword(input.password);
  await reserveEmail(ctx, input.email, userId, cc);
  failpoint('register:after-reserve');
  const { token, tokenHash } = linkToken(userId);
  try {
    const result = await runUser(
      ctx,
      userId,
      userCommand(ctx, 'RegisterUser', {
        userId,
        email: normalizeEmail(input.email),
        passwordHash,
        locale: input.locale,
        termsAccepted: input.termsAccepted,
        // an account staff create is registered from the console: the staff member's browser and
        // address are the actor's (in the event's metadata), not the new user's own
        registrationApp: staff ? 'console' : meta.client,
        userAgent: staff ? null : meta.userAgent,
        ip: staff ? null : meta.ip,
        role: input.role,
        createdByStaffId: staff?.id ?? null,
        confirmTokenHash: staff ? null : tokenHash,
      }),
      cc,
    );
    if (!staff) {
      await mailUser(ctx, input.email, 'email-confirmation', input.locale, { link: appLink(ctx, `/email-confirmation/${token}`) }, userId, cc);
    }
    return { userId, position: result.position };
  } catch (error) {
    // the address must not stay held by an account that was never created
    await releaseEmail(ctx, input.email, userId, cc).catch(() => undefined);
    throw error;
  }
};
