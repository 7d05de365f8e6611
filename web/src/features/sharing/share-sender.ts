import { describeUserAgent } from '@axel/domain/notifications/user-agent';
import type { TFunction } from 'i18next';

/** Who shared it, as the share's answer names them: "Ana Lima (ana@example.com)", "Ana Lima", "ana@example.com", or nobody. */
export const senderLabel = (owner: { ownerName?: string | null; ownerEmail?: string | null }): string | null => {
  const name = owner.ownerName?.trim() || null;
  const email = owner.ownerEmail?.trim() || null;
  if (name && email) return `${name} (${email})`;
  return name ?? email;
};

/**
 * The browser and system of an access, in words ("Firefox on Windows"), read by the same user-agent
 * rules as the account's activity and sign-in notices.
 */
export const deviceWords = (userAgent: string | null | undefined, t: TFunction): string => {
  const { browser, system } = describeUserAgent(userAgent);
  if (browser && system) return t('sharing.log.device.browserOnSystem', { browser, system });
  if (system) return t('sharing.log.device.browserOnSystem', { browser: t('sharing.log.device.aBrowser'), system });
  return browser ?? t('sharing.log.device.unknown');
};
