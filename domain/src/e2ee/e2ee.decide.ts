import { assertNever, type Command, type Decider } from '../shared/decider';
import { DomainError } from '../shared/errors';
import { E2eeErrors } from './e2ee.errors';
import type { E2eeEvent } from './e2ee.events';
import { PASSPHRASE_HINT_MAX_LENGTH } from './e2ee.rules';

export interface E2eeState {
  readonly key: { readonly fingerprint: string } | null;
  readonly encryptionDefault: boolean;
  readonly e2eeEnabledGlobalDefault: boolean;
  readonly forgotten: boolean;
}

/** A key as the API read it (armored, checked to be a private key locked by a passphrase). */
export interface CheckedKey {
  readonly privateKey: string;
  readonly publicKey: string;
  readonly fingerprint: string;
}

export type E2eeCommand =
  | Command<'SetPassphraseKey', { key: CheckedKey; hint: string; hasAccess: boolean }>
  | Command<'ChangePassphrase', { key: CheckedKey; hint: string; hasAccess: boolean }>
  | Command<'ResetPassphrase', { key: CheckedKey; hint: string; hasAccess: boolean }>
  | Command<'ChangeE2eeDefaults', { encryptionDefault?: boolean; e2eeEnabledGlobalDefault?: boolean; hasAccess: boolean }>
  | Command<'ForgetE2eeKeys', Record<string, never>>;

export const initialE2eeState = (): E2eeState => ({ key: null, encryptionDefault: false, e2eeEnabledGlobalDefault: false, forgotten: false });

const checkedHint = (raw: string): string => {
  const hint = raw.trim();
  if (!hint || [...hint].length > PASSPHRASE_HINT_MAX_LENGTH) throw new DomainError(E2eeErrors.hintRequired, { max: PASSPHRASE_HINT_MAX_LENGTH });
  return hint;
};

const requireAccess = (hasAccess: boolean) => {
  if (!hasAccess) throw new DomainError(E2eeErrors.noAccess);
};

const decide = (command: E2eeCommand, state: E2eeState): E2eeEvent[] => {
  const at = command.metadata.now.toISOString();
  switch (command.type) {
    case 'SetPassphraseKey': {
      requireAccess(command.data.hasAccess);
      if (state.key) throw new DomainError(E2eeErrors.passphraseAlreadySet);
      const { privateKey, publicKey, fingerprint } = command.data.key;
      return [{ type: 'E2eeKeySet', data: { privateKeyCiphertext: privateKey, publicKey, fingerprint, hint: checkedHint(command.data.hint), at } }];
    }
    case 'ChangePassphrase': {
      // a key already set stays usable whatever the plan: files are never locked out
      if (!state.key) throw new DomainError(E2eeErrors.passphraseNotSet);
      if (command.data.key.fingerprint !== state.key.fingerprint) throw new DomainError(E2eeErrors.keyMismatch);
      const { privateKey, fingerprint } = command.data.key;
      return [{ type: 'E2eePassphraseChanged', data: { privateKeyCiphertext: privateKey, fingerprint, hint: checkedHint(command.data.hint), at } }];
    }
    case 'ResetPassphrase': {
      requireAccess(command.data.hasAccess);
      if (!state.key) throw new DomainError(E2eeErrors.passphraseNotSet);
      if (command.data.key.fingerprint === state.key.fingerprint) throw new DomainError(E2eeErrors.keyNotNew);
      const { privateKey, publicKey, fingerprint } = command.data.key;
      return [
        {
          type: 'E2eeKeyReset',
          data: {
            privateKeyCiphertext: privateKey,
            publicKey,
            fingerprint,
            hint: checkedHint(command.data.hint),
            previousFingerprint: state.key.fingerprint,
            at,
          },
        },
      ];
    }
    case 'ChangeE2eeDefaults': {
      const encryptionDefault = command.data.encryptionDefault ?? state.encryptionDefault;
      const e2eeEnabledGlobalDefault = command.data.e2eeEnabledGlobalDefault ?? state.e2eeEnabledGlobalDefault;
      if (encryptionDefault === state.encryptionDefault && e2eeEnabledGlobalDefault === state.e2eeEnabledGlobalDefault) return [];
      // turning end-to-end on needs the plan and a passphrase; turning it off is always allowed
      if (encryptionDefault || e2eeEnabledGlobalDefault) {
        requireAccess(command.data.hasAccess);
        if (!state.key) throw new DomainError(E2eeErrors.passphraseNotSet);
      }
      return [{ type: 'E2eeDefaultsChanged', data: { encryptionDefault, e2eeEnabledGlobalDefault } }];
    }
    case 'ForgetE2eeKeys':
      return state.forgotten ? [] : [{ type: 'E2eeKeysForgotten', data: { at } }];
    default:
      return assertNever(command);
  }
};

const evolve = (state: E2eeState, event: E2eeEvent): E2eeState => {
  switch (event.type) {
    case 'E2eeKeySet':
    case 'E2eeKeyReset':
    case 'E2eePassphraseChanged':
      return { ...state, key: { fingerprint: event.data.fingerprint } };
    case 'E2eeDefaultsChanged':
      return { ...state, ...event.data };
    case 'E2eeKeysForgotten':
      return { ...initialE2eeState(), forgotten: true };
    default:
      return state;
  }
};

export const e2eeDecider: Decider<E2eeCommand, E2eeEvent, E2eeState> = { initialState: initialE2eeState, decide, evolve };
