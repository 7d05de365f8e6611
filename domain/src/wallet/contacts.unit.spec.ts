import { describe, expect, it } from 'vitest';
import { DomainError } from '../shared/errors';
import { contactFieldsFrom, contactsDecider, type ContactCommand, type ContactsState } from './contacts';

const at = { now: new Date('2026-11-01T00:00:00Z') };
const owner = { email: 'me@example.com', keys: ['yMyOwnAddress000000000000000000000'] };
const key = (n: number) => `y${String(n).padStart(33, '0')}`;
const valid = (over: Record<string, string | null> = {}) => contactFieldsFrom({ nickname: 'Ada', email: 'ada@example.com', publicKey: key(1), ...over });

const run = (commands: ContactCommand[]): ContactsState =>
  commands.reduce((s, c) => contactsDecider.decide(c, s).reduce(contactsDecider.evolve, s), contactsDecider.initialState());
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
    expect(failure(() => run([add('c1', valid({ email: 'ME@example.com' }))])).code).toBe('CONTACT_OWN_EMAIL');
    expect(failure(() => run([add('c1', valid({ publicKey: owner.keys[0]! }))])).code).toBe('CONTACT_OWN_KEY');
    expect(failure(() => run([add('c1'), add('c2', valid({ publicKey: key(2) }))])).code).toBe('CONTACT_DUPLICATE_EMAIL');
    expect(failure(() => run([add('c1'), add('c2', valid({ email: 'bob@example.com' }))])).code).toBe('CONTACT_DUPLICATE_KEY');
  });

  it('edits a contact without tripping over itself, removes it, and frees its e-mail and key', () => {
    const state = run([add('c1'), { type: 'ChangeContact', data: { contactId: 'c1', contact: valid({ nickname: 'Countess' }), owner }, metadata: at }]);
    expect(state.contacts.c1).toMatchObject({ nickname: 'Countess', active: true });
    const removed = run([add('c1'), { type: 'RemoveContact', data: { contactId: 'c1' }, metadata: at }, add('c2')]);
    expect(Object.keys(removed.contacts)).toEqual(['c2']);
    expect(failure(() => run([{ type: 'RemoveContact', data: { contactId: 'nope' }, metadata: at }])).code).toBe('CONTACT_NOT_FOUND');
  });

  it('a retried add of the same contact adds it once', () => {
    expect(Object.keys(run([add('c1'), add('c1')]).contacts)).toEqual(['c1']);
  });
});
