import { checkLink, requireExisting } from './accounts.decide.common';
import type { UserState } from './accounts.state';

export type MailedLink = 'password-reset' | 'two-factor-reset' | 'email-change' | 'email-confirmation';

/**
 * Whether a mailed link can still be used, without using it: throws the error the link's own
 * command would (LINK_INVALID, LINK_EXPIRED, or the account's absence), so a page can say so
 * before the user types anything.
 */
export const checkMailedLink = (state: UserState, link: MailedLink, tokenHash: string, now: Date): void => {
  const user = requireExisting(state);
  const pending =
    link === 'password-reset'
      ? user.passwordReset
      : link === 'two-factor-reset'
        ? user.twoFactor.resetToken
        : link === 'email-change'
          ? user.emailChange
          : user.emailConfirmation;
  checkLink(pending, tokenHash, now.getTime());
};
