import { describe, expect, it } from 'vitest';
import { shareSenderFor } from './share-sender';

const owner = { name: 'Olga Ortiz', email: 'olga@example.com' };

describe("a share's sender as its visitors see them", () => {
  it("a private share's recipients see the owner's name and the e-mail its mail came from", () => {
    expect(shareSenderFor('private', owner)).toEqual({ name: 'Olga Ortiz', email: 'olga@example.com' });
    expect(shareSenderFor('private', { name: null, email: 'olga@example.com' })).toEqual({ name: null, email: 'olga@example.com' });
  });

  it("a public link's visitors see the owner's name only, never the e-mail", () => {
    expect(shareSenderFor('public', owner)).toEqual({ name: 'Olga Ortiz', email: null });
    expect(shareSenderFor('public', { name: null, email: 'olga@example.com' })).toEqual({ name: null, email: null });
  });

  it('a purged or unknown owner is nobody', () => {
    expect(shareSenderFor('private', { name: null, email: null })).toEqual({ name: null, email: null });
    expect(shareSenderFor('private', null)).toEqual({ name: null, email: null });
  });
});
