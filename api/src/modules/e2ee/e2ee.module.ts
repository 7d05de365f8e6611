import {
  e2eeDecider,
  e2eeEventDefinitions,
  e2eeKeysStreamName,
  type E2eeCommand,
  shareSignatureEventDefinitions,
  shareSignaturesDecider,
  shareSignaturesStreamName,
  type ShareSignatureCommand,
} from '@axel/domain';
import { e2eeKeysProjection, shareSignaturesProjection } from '@axel/projections/e2ee/e2ee.projection';
import { sharesWithSignaturesOf } from '@axel/projections/e2ee/e2ee.queries';
import { handleCommand } from '@axel/platform';
import type { Module } from '../../module';
import { e2eeRoutes } from './e2ee.routes';

/**
 * End-to-end encryption's server side: each user's passphrase-protected key and defaults (the
 * passphrase stays in the browser), and the signatures of shared files. Files' key packets live
 * with the files (storage), the offline unlocker in `api/src/cli/unlock.ts`.
 */
export const e2eeModule: Module = {
  name: 'e2ee',
  events: [...e2eeEventDefinitions, ...shareSignatureEventDefinitions],
  projections: [e2eeKeysProjection, shareSignaturesProjection],
  personalData: { e2ee_keys: ['private_key', 'public_key', 'hint'], share_signatures: ['signed_file_name'] },
  routes: e2eeRoutes,
  // the key stream's and each signature stream's keys are destroyed; the read model drops the rows
  forget: async (ctx, userId, actor) => {
    if ((await ctx.store.readStream(e2eeKeysStreamName(userId))).revision >= 0) {
      const command = { type: 'ForgetE2eeKeys', data: {}, metadata: { now: actor.now } } as E2eeCommand;
      await handleCommand(ctx.commands, e2eeDecider, e2eeKeysStreamName(userId), command, actor);
    }
    for (const shareId of await sharesWithSignaturesOf(ctx.pool, userId)) {
      const command = { type: 'ForgetShareSignatures', data: {}, metadata: { now: actor.now } } as ShareSignatureCommand;
      await handleCommand(ctx.commands, shareSignaturesDecider, shareSignaturesStreamName(shareId), command, actor);
    }
  },
};
