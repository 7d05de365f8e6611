import { describe, expect, it } from 'vitest';
import { linkIdFrom } from './share-link';

const ID = 'AbCdEfGhIjKlMnOp-_StUv';

describe('a pasted share link', () => {
  it('gives the link id of a public or private share URL, or of a bare link id', () => {
    expect(linkIdFrom(`https://drive.example.com/shares/${ID}`)).toBe(ID);
    expect(linkIdFrom(`https://drive.example.com/private-share/${ID}/folder/x?y=1`)).toBe(ID);
    expect(linkIdFrom(`  ${ID} `)).toBe(ID);
    expect(linkIdFrom(`/shares/${ID}`)).toBe(ID);
  });

  it('refuses anything else', () => {
    expect(linkIdFrom('https://drive.example.com/files/storage')).toBeNull();
    expect(linkIdFrom(`https://drive.example.com/shares/${ID}x`)).toBeNull();
    expect(linkIdFrom('short')).toBeNull();
    expect(linkIdFrom('')).toBeNull();
  });
});
