import { describe, expect, it } from 'vitest';
import { DeciderSpecification } from '../shared/decider.testing';
import { type E2eeCommand, e2eeDecider } from './e2ee.decide';
import { E2eeErrors } from './e2ee.errors';
import type { E2eeEvent } from './e2ee.events';

const metadata = { now: new Date('2026-11-01T00:00:00Z') };
const at = metadata.now.toISOString();
const cmd = <T extends E2eeCommand['type']>(type: T, data: Extract<E2eeCommand, { type: T }>['data']) => ({ type, data, metadata }) as E2eeCommand;
const key = (n: number) => ({ privateKey: `private ${n}`, publicKey: `public ${n}`, fingerprint: `fp${n}` });
const keyed = (n: number) => ({ privateKeyCiphertext: `private ${n}`, publicKey: `public ${n}`, fingerprint: `fp${n}` });
const set: E2eeEvent = { type: 'E2eeKeySet', data: { ...keyed(1), hint: 'the usual', at } };
const given = DeciderSpecification.for(e2eeDecider);

describe('the end-to-end key and its passphrase', () => {
  it('sets a first key with a hint, on a plan with end-to-end access only', () => {
    given([])
      .when(cmd('SetPassphraseKey', { key: key(1), hint: '  the usual ', hasAccess: true }))
      .then([set]);
    given([])
      .when(cmd('SetPassphraseKey', { key: key(1), hint: 'x', hasAccess: false }))
      .thenThrows(E2eeErrors.noAccess);
    given([])
      .when(cmd('SetPassphraseKey', { key: key(1), hint: '   ', hasAccess: true }))
      .thenThrows(E2eeErrors.hintRequired, { max: 255 });
    given([set])
      .when(cmd('SetPassphraseKey', { key: key(2), hint: 'x', hasAccess: true }))
      .thenThrows(E2eeErrors.passphraseAlreadySet);
  });

  it('a passphrase change keeps the same key; a reset makes a new one', () => {
    given([set])
      .when(cmd('ChangePassphrase', { key: { ...key(1), privateKey: 'private 1 again' }, hint: 'new hint', hasAccess: false }))
      .then([{ type: 'E2eePassphraseChanged', data: { privateKeyCiphertext: 'private 1 again', fingerprint: 'fp1', hint: 'new hint', at } }]);
    given([set])
      .when(cmd('ChangePassphrase', { key: key(2), hint: 'h', hasAccess: true }))
      .thenThrows(E2eeErrors.keyMismatch);
    given([])
      .when(cmd('ChangePassphrase', { key: key(1), hint: 'h', hasAccess: true }))
      .thenThrows(E2eeErrors.passphraseNotSet);
    given([set])
      .when(cmd('ResetPassphrase', { key: key(2), hint: 'h', hasAccess: true }))
      .then([{ type: 'E2eeKeyReset', data: { ...keyed(2), hint: 'h', previousFingerprint: 'fp1', at } }]);
    given([set])
      .when(cmd('ResetPassphrase', { key: key(1), hint: 'h', hasAccess: true }))
      .thenThrows(E2eeErrors.keyNotNew);
  });

  it('turns end-to-end on by default only with a passphrase and access; off always', () => {
    given([])
      .when(cmd('ChangeE2eeDefaults', { encryptionDefault: true, hasAccess: true }))
      .thenThrows(E2eeErrors.passphraseNotSet);
    given([set])
      .when(cmd('ChangeE2eeDefaults', { e2eeEnabledGlobalDefault: true, hasAccess: false }))
      .thenThrows(E2eeErrors.noAccess);
    given([set])
      .when(cmd('ChangeE2eeDefaults', { encryptionDefault: true, hasAccess: true }))
      .then([{ type: 'E2eeDefaultsChanged', data: { encryptionDefault: true, e2eeEnabledGlobalDefault: false } }]);
    given([set, { type: 'E2eeDefaultsChanged', data: { encryptionDefault: true, e2eeEnabledGlobalDefault: false } }])
      .when(cmd('ChangeE2eeDefaults', { encryptionDefault: false, hasAccess: false }))
      .then((events) => expect(events).toEqual([{ type: 'E2eeDefaultsChanged', data: { encryptionDefault: false, e2eeEnabledGlobalDefault: false } }]));
    given([set])
      .when(cmd('ChangeE2eeDefaults', { encryptionDefault: false, hasAccess: true }))
      .thenNothingHappened();
  });
});
