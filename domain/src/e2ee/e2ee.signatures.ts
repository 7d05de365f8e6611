import { z } from 'zod';
import { assertNever, type Command, type Decider } from '../shared/decider';
import { defineEvent, erasesOwnStream, type EventOf } from '../shared/events';

/** One stream per share holds the detached OpenPGP signatures of its files (spec §7 `pgp-signatures`). */
export const shareSignaturesStreamName = (shareId: string) => `share-signatures-${shareId}`;
export const shareIdOfSignaturesStream = (streamName: string) => streamName.slice('share-signatures-'.length);

/** A signed file's signature, verified in the recipient's browser against the signer's public key. */
export const ShareSignatureAdded = defineEvent(
  'ShareSignatureAdded',
  z.object({
    signatureId: z.string(),
    ownerId: z.string(),
    signedFileId: z.string(),
    signedFileName: z.string(),
    mime: z.string().nullable(),
    size: z.number().int().nullable(),
    signerKeyId: z.string(),
    pgpmessage: z.string(),
    at: z.string(),
  }),
  { personal: ['signedFileName'] },
);
export const ShareSignaturesForgotten = defineEvent('ShareSignaturesForgotten', z.object({ at: z.string() }), { erases: erasesOwnStream });

export const shareSignatureEventDefinitions = [ShareSignatureAdded, ShareSignaturesForgotten];
export type ShareSignatureEvent = EventOf<typeof ShareSignatureAdded> | EventOf<typeof ShareSignaturesForgotten>;

export type ShareSignatureCommand =
  | Command<'AddShareSignature', Omit<EventOf<typeof ShareSignatureAdded>['data'], 'at'>>
  | Command<'ForgetShareSignatures', Record<string, never>>;

export interface ShareSignaturesState {
  /** Signature ids already kept (the same signature sent again is kept once). */
  readonly ids: ReadonlySet<string>;
  readonly forgotten: boolean;
}

export const shareSignaturesDecider: Decider<ShareSignatureCommand, ShareSignatureEvent, ShareSignaturesState> = {
  initialState: () => ({ ids: new Set(), forgotten: false }),
  decide: (command, state) => {
    const at = command.metadata.now.toISOString();
    switch (command.type) {
      case 'AddShareSignature':
        return state.ids.has(command.data.signatureId) ? [] : [{ type: 'ShareSignatureAdded', data: { ...command.data, at } }];
      case 'ForgetShareSignatures':
        return state.forgotten ? [] : [{ type: 'ShareSignaturesForgotten', data: { at } }];
      default:
        return assertNever(command);
    }
  },
  evolve: (state, event) => {
    switch (event.type) {
      case 'ShareSignatureAdded':
        return { ...state, ids: new Set(state.ids).add(event.data.signatureId) };
      case 'ShareSignaturesForgotten':
        return { ids: new Set(), forgotten: true };
      default:
        return state;
    }
  },
};
