import { z } from 'zod';
import { assertNever, type Command, type Decider } from '../shared/decider';
import { CommonErrors, DomainError } from '../shared/errors';
import { defineEvent, erasesOwnStream, type EventOf } from '../shared/events';
import { ContactErrors } from './wallet.errors';

/** A user's address book of people to send AXEL to (spec §3 Contact, §5 contact rules). */
export const contactsStreamName = (userId: string) => `contacts-${userId}`;
export const PUBLIC_KEY_LENGTH = 34;

export const ContactFields = z.object({
  nickname: z.string(),
  firstName: z.string().nullable(),
  middleName: z.string().nullable(),
  lastName: z.string().nullable(),
  email: z.string(),
  email2: z.string().nullable(),
  phone: z.string().nullable(),
  phone2: z.string().nullable(),
  publicKey: z.string(),
});
export type ContactFields = z.infer<typeof ContactFields>;
const PERSONAL = ['nickname', 'firstName', 'middleName', 'lastName', 'email', 'email2', 'phone', 'phone2', 'publicKey'] as const;

export const ContactAdded = defineEvent('ContactAdded', ContactFields.extend({ contactId: z.string() }), { personal: [...PERSONAL] });
export const ContactChanged = defineEvent('ContactChanged', ContactFields.extend({ contactId: z.string() }), { personal: [...PERSONAL] });
export const ContactRemoved = defineEvent('ContactRemoved', z.object({ contactId: z.string() }));
/** The owner's account was purged: the address book is forgotten with it. */
export const ContactsForgotten = defineEvent('ContactsForgotten', z.object({ at: z.string() }), { erases: erasesOwnStream });
export const contactEventDefinitions = [ContactAdded, ContactChanged, ContactRemoved, ContactsForgotten];
export type ContactEvent = EventOf<typeof ContactAdded> | EventOf<typeof ContactChanged> | EventOf<typeof ContactRemoved> | EventOf<typeof ContactsForgotten>;

/** Who the owner is, so a contact is never the owner's own e-mail or key. */
export interface ContactOwner {
  readonly email: string;
  readonly keys: readonly string[];
}

export type ContactCommand =
  | Command<'AddContact', { contactId: string; contact: ContactFields; owner: ContactOwner }>
  | Command<'ChangeContact', { contactId: string; contact: ContactFields; owner: ContactOwner }>
  | Command<'RemoveContact', { contactId: string }>
  | Command<'ForgetContacts', Record<string, never>>;

export interface Contact extends ContactFields {
  readonly id: string;
  readonly active: boolean;
}
export interface ContactsState {
  readonly contacts: Readonly<Record<string, Contact>>;
  readonly forgotten?: boolean;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** Digits with an optional leading +, and spaces, dots, dashes or brackets between; 6 to 15 digits. */
const PHONE = /^\+?[0-9().\s-]{6,25}$/;

const trimmedOrNull = (v: string | null | undefined) => {
  const t = v?.trim() ?? '';
  return t === '' ? null : t;
};

/** Normalises what was typed and checks each field; the errors name the field, as every form's do. */
export const contactFieldsFrom = (input: Partial<Record<keyof ContactFields, string | null>>): ContactFields => {
  const contact: ContactFields = {
    nickname: input.nickname?.trim() ?? '',
    firstName: trimmedOrNull(input.firstName),
    middleName: trimmedOrNull(input.middleName),
    lastName: trimmedOrNull(input.lastName),
    email: input.email?.trim().toLowerCase() ?? '',
    email2: trimmedOrNull(input.email2)?.toLowerCase() ?? null,
    phone: trimmedOrNull(input.phone),
    phone2: trimmedOrNull(input.phone2),
    publicKey: input.publicKey?.trim() ?? '',
  };
  const fields: Record<string, string> = {};
  if (!contact.nickname) fields.nickname = 'validation.required';
  else if (contact.nickname.length > 100) fields.nickname = 'validation.tooLong';
  for (const name of ['firstName', 'middleName', 'lastName'] as const) if ((contact[name]?.length ?? 0) > 100) fields[name] = 'validation.tooLong';
  if (!contact.email) fields.email = 'validation.required';
  else if (!EMAIL.test(contact.email) || contact.email.length > 254) fields.email = 'validation.email';
  if (contact.email2 && (!EMAIL.test(contact.email2) || contact.email2.length > 254)) fields.email2 = 'validation.email';
  for (const name of ['phone', 'phone2'] as const) {
    const v = contact[name];
    if (v && (!PHONE.test(v) || v.replace(/\D/g, '').length < 6 || v.replace(/\D/g, '').length > 15)) fields[name] = 'validation.phone';
  }
  if (!contact.publicKey) fields.publicKey = 'validation.required';
  else if (contact.publicKey.length !== PUBLIC_KEY_LENGTH || !/^[A-Za-z0-9]+$/.test(contact.publicKey)) fields.publicKey = 'validation.publicKeyLength';
  if (Object.keys(fields).length) throw new DomainError(CommonErrors.validation, { fields });
  return contact;
};

const checkAgainst = (state: ContactsState, contactId: string, contact: ContactFields, owner: ContactOwner) => {
  if (contact.email === owner.email.toLowerCase() || contact.email2 === owner.email.toLowerCase()) throw new DomainError(ContactErrors.ownEmail);
  if (owner.keys.includes(contact.publicKey)) throw new DomainError(ContactErrors.ownKey);
  for (const other of Object.values(state.contacts)) {
    if (other.id === contactId) continue;
    if (other.email === contact.email) throw new DomainError(ContactErrors.duplicateEmail);
    if (other.publicKey === contact.publicKey) throw new DomainError(ContactErrors.duplicateKey);
  }
};

const sameFields = (a: ContactFields, b: ContactFields) => (Object.keys(ContactFields.shape) as (keyof ContactFields)[]).every((k) => a[k] === b[k]);

export const contactsDecider: Decider<ContactCommand, ContactEvent, ContactsState> = {
  initialState: () => ({ contacts: {} }),
  decide(command, state) {
    switch (command.type) {
      case 'AddContact': {
        const { contactId, contact, owner } = command.data;
        const existing = state.contacts[contactId];
        if (existing) {
          if (sameFields(existing, contact)) return [];
          throw new DomainError(CommonErrors.conflict);
        }
        checkAgainst(state, contactId, contact, owner);
        return [{ type: 'ContactAdded', data: { contactId, ...contact } }];
      }
      case 'ChangeContact': {
        const { contactId, contact, owner } = command.data;
        const existing = state.contacts[contactId];
        if (!existing) throw new DomainError(ContactErrors.notFound);
        if (sameFields(existing, contact)) return [];
        checkAgainst(state, contactId, contact, owner);
        return [{ type: 'ContactChanged', data: { contactId, ...contact } }];
      }
      case 'RemoveContact':
        if (!state.contacts[command.data.contactId]) throw new DomainError(ContactErrors.notFound);
        return [{ type: 'ContactRemoved', data: { contactId: command.data.contactId } }];
      case 'ForgetContacts':
        return state.forgotten ? [] : [{ type: 'ContactsForgotten', data: { at: command.metadata.now.toISOString() } }];
      default:
        return assertNever(command);
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'ContactAdded':
      case 'ContactChanged': {
        const { contactId, ...fields } = event.data;
        return { ...state, contacts: { ...state.contacts, [contactId]: { id: contactId, ...fields, active: true } } };
      }
      case 'ContactRemoved': {
        const { [event.data.contactId]: _removed, ...rest } = state.contacts;
        return { ...state, contacts: rest };
      }
      case 'ContactsForgotten':
        return { contacts: {}, forgotten: true };
      default:
        return state;
    }
  },
};
