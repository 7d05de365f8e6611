import { z } from 'zod';
import { defineEvent, erasesOwnStream, type EventOf } from '../shared/events';

/** One stream per user holds their end-to-end key (passphrase-protected) and encryption defaults. */
export const e2eeKeysStreamName = (userId: string) => `e2ee-keys-${userId}`;
export const userIdOfE2eeKeysStream = (streamName: string) => streamName.slice('e2ee-keys-'.length);

const key = {
  /** The armored private key, locked with the passphrase in the browser (the server never sees the passphrase): ciphertext. */
  privateKeyCiphertext: z.string(),
  publicKey: z.string(),
  fingerprint: z.string(),
  hint: z.string(),
  at: z.string(),
};

/** The first passphrase: a key pair made in the browser. */
export const E2eeKeySet = defineEvent('E2eeKeySet', z.object(key), { personal: ['privateKeyCiphertext', 'publicKey', 'hint'] });
/** The same key, re-protected with a new passphrase: every file stays readable. */
export const E2eePassphraseChanged = defineEvent(
  'E2eePassphraseChanged',
  z.object({ privateKeyCiphertext: z.string(), fingerprint: z.string(), hint: z.string(), at: z.string() }),
  {
    personal: ['privateKeyCiphertext', 'hint'],
  },
);
/** A new key: files encrypted for the previous one can no longer be opened. */
export const E2eeKeyReset = defineEvent('E2eeKeyReset', z.object({ ...key, previousFingerprint: z.string() }), {
  personal: ['privateKeyCiphertext', 'publicKey', 'hint'],
});
export const E2eeDefaultsChanged = defineEvent('E2eeDefaultsChanged', z.object({ encryptionDefault: z.boolean(), e2eeEnabledGlobalDefault: z.boolean() }));
/** The account was purged: its keys are forgotten with it. */
export const E2eeKeysForgotten = defineEvent('E2eeKeysForgotten', z.object({ at: z.string() }), { erases: erasesOwnStream });

export const e2eeEventDefinitions = [E2eeKeySet, E2eePassphraseChanged, E2eeKeyReset, E2eeDefaultsChanged, E2eeKeysForgotten];

export type E2eeEvent =
  | EventOf<typeof E2eeKeySet>
  | EventOf<typeof E2eePassphraseChanged>
  | EventOf<typeof E2eeKeyReset>
  | EventOf<typeof E2eeDefaultsChanged>
  | EventOf<typeof E2eeKeysForgotten>;
