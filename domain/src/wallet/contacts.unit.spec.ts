import { describe, expect, it } from 'vitest';
import { DeciderSpecification } from '../shared/decider.testing';
import { DomainError } from '../shared/errors';
import { contactFieldsFrom, contactsDecider, type ContactCommand } from './contacts';
import { ContactErrors } from './wallet.errors';

const at = { now: new Date('2026-11-01T00:00:00Z') };
const owner = { email: 'me@example.com', keys: ['yMyOwnAddress000000000000000000000'] };
const key = (n: number) => `y${String(n).padStart(33, '0')}`;
const valid = (over: Record<string, string | null> = {}) => contactFieldsFrom({ nickname: 'Ada', email: 'ada@example.com', publicKey: key(1), ...over });

const given = DeciderSpecification.for(contactsDecider);
const history = (commands: ContactCommand[]) => DeciderSpecification.history(contactsDecider, commands);
const add = (contactId: string, contact = valid()): ContactCommand => ({ type: 'AddContact', data: { contactId, contact, owner }, metadata: at });
const failure = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    if (error instanceof DomainError) return { code: error.code, data: error.data };
    throw error;
  }
  throw new Error('expected a refusal');
};

describe('contact rules', () => {
  it('needs nickname, e-mail and public key, and checks e-mail, phone and key formats', () => {
    expect(failure(() => contactFieldsFrom({})).data).toEqual({
      fields: { nickname: 'validation.required', email: 'validation.required', publicKey: 'validation.required' },
    });
    expect(
      failure(() =>
        contactFieldsFrom({ nickname: 'A', email: 'nope', email2: 'also@nope', phone: '12ab', phone2: '+1 (555) 010-0000', publicKey: key(1).slice(1) }),
      ).data,
    ).toEqual({ fields: { email: 'validation.email', email2: 'validation.email', phone: 'validation.phone', publicKey: 'validation.publicKeyLength' } });
    expect(valid({ phone: '+1 (555) 010-0000', email: ' Ada@Example.com ' })).toMatchObject({ phone: '+1 (555) 010-0000', email: 'ada@example.com' });
  });

  it('refuses your own e-mail or key, and a duplicate e-mail or key', () => {
    given([])
      .when(add('c1', valid({ email: 'ME@example.com' })))
      .thenThrows(ContactErrors.ownEmail);
    given([])
      .when(add('c1', valid({ publicKey: owner.keys[0]! })))
      .thenThrows(ContactErrors.ownKey);
    given(history([add('c1')]))
      .when(add('c2', valid({ publicKey: key(2) })))
      .thenThrows(ContactErrors.duplicateEmail);
    given(history([add('c1')]))
      .when(add('c2', valid({ email: 'bob@example.com' })))
      .thenThrows(ContactErrors.duplicateKey);
  });

  it('edits a contact without tripping over itself, removes it, and frees its e-mail and key', () => {
    given(history([add('c1')]))
      .when({ type: 'ChangeContact', data: { contactId: 'c1', contact: valid({ nickname: 'Countess' }), owner }, metadata: at })
      .thenState((state) => expect(state.contacts.c1).toMatchObject({ nickname: 'Countess', active: true }));
    given(history([add('c1'), { type: 'RemoveContact', data: { contactId: 'c1' }, metadata: at }]))
      .when(add('c2'))
      .thenState((removed) => expect(Object.keys(removed.contacts)).toEqual(['c2']));
    given([])
      .when({ type: 'RemoveContact', data: { contactId: 'nope' }, metadata: at })
      .thenThrows(ContactErrors.notFound);
  });

  it('a retried add of the same contact adds it once', () => {
    given(history([add('c1')]))
      .when(add('c1'))
      .thenState((state, events) => {
        expect(events).toEqual([]);
        expect(Object.keys(state.contacts)).toEqual(['c1']);
      });
  });
});
