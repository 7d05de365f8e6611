import { defineErrors } from '../shared/errors';

/**
 * End-to-end encryption (spec §5 passphrase rules, §6 encryption access, §8). Wrong passphrase and
 * incorrect current passphrase are the browser's own checks: the server never sees a passphrase.
 */
export const E2eeErrors = defineErrors({
  noAccess: { code: 'NO_E2EE_ACCESS', status: 403, message: 'End-to-end encryption needs the Professional plan or higher' },
  passphraseNotSet: { code: 'PASSPHRASE_NOT_SET', status: 409, message: 'Set a passphrase first' },
  passphraseAlreadySet: { code: 'PASSPHRASE_ALREADY_SET', status: 409, message: 'A passphrase is already set: change it or reset it' },
  hintRequired: { code: 'HINT_REQUIRED', status: 400, message: 'A passphrase hint is required' },
  invalidKey: { code: 'INVALID_KEY', status: 400, message: 'This is not a passphrase-protected OpenPGP private key' },
  keyMismatch: { code: 'KEY_MISMATCH', status: 400, message: 'A passphrase change keeps the same key' },
  invalidSignature: { code: 'INVALID_SIGNATURE', status: 400, message: 'This is not an armored OpenPGP signature' },
  keyNotNew: { code: 'KEY_NOT_NEW', status: 400, message: 'A reset makes a new key' },
});
