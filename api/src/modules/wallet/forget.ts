import { contactsDecider, contactsStreamName, walletDecider, walletStreamName, type ContactCommand, type WalletCommand } from '@axel/domain';
import { handleCommand, type CommandContext } from '@axel/platform';
import type { AppContext } from '../../context';

/**
 * A purged account's address book and send notes are forgotten: their streams' keys are destroyed
 * (crypto-shredding), so the contacts and notes read as erased wherever they were stored. Called
 * after `PurgeAccount`; repeating it does nothing more.
 */
export const forgetWalletData = async (ctx: AppContext, userId: string, actor: CommandContext & { now: Date }) => {
  const metadata = { now: actor.now };
  if ((await ctx.store.readStream(contactsStreamName(userId))).revision >= 0) {
    await handleCommand(ctx.commands, contactsDecider, contactsStreamName(userId), { type: 'ForgetContacts', data: {}, metadata } as ContactCommand, actor);
  }
  if ((await ctx.store.readStream(walletStreamName(userId))).revision >= 0) {
    await handleCommand(ctx.commands, walletDecider, walletStreamName(userId), { type: 'ForgetWalletData', data: {}, metadata } as WalletCommand, actor);
  }
};
