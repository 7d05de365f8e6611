import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FORBIDDEN_NAME_CHARACTERS, freeName, NAME_MAX_BYTES, nameByteLength, nameKey, nameProblem, SAFARI_NAME_MAX_BYTES } from './storage.names';

const letters = fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCXYZ0123456789'.split('')), minLength: 1, maxLength: 40 });
const kind = fc.constantFrom('file' as const, 'folder' as const);

describe('name rules (spec §5)', () => {
  it('accepts plain letters and digits, as a file with an extension and as a folder', () => {
    fc.assert(
      fc.property(letters, letters, (stem, ext) => {
        fc.pre(!/^(con|prn|aux|nul|com\d|lpt\d|kut|lul|porra|merda|foda|puta|puto|verga|hoer)$/i.test(stem));
        expect(nameProblem(stem, 'folder')).toBeNull();
        expect(nameProblem(`${stem}.${ext}`, 'file') ?? 'ok').toMatch(/ok|appFile/);
      }),
    );
  });

  it('refuses every forbidden character wherever it stands', () => {
    fc.assert(
      fc.property(letters, fc.constantFrom(...FORBIDDEN_NAME_CHARACTERS), fc.nat(), kind, (name, ch, at, k) => {
        const i = at % (name.length + 1);
        expect(nameProblem(name.slice(0, i) + ch + name.slice(i), k)).toBe('forbiddenCharacters');
      }),
    );
  });

  it('refuses emoji', () => {
    fc.assert(
      fc.property(letters, fc.constantFrom('😀', '👍🏽', '❤️', '🇳🇱', '1️⃣', '🚀'), kind, (name, emoji, k) => {
        expect(nameProblem(`${name}${emoji}`, k)).toBe('emoji');
      }),
    );
  });

  it('counts letters and digits as 1, other characters above 255 as 2, the rest as 4', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('a', 'Z', '7', 'é', 'ß', 'ж', '中', ' ', '-', '_', '(', '€', '—')), (chars) => {
        const expected = chars.reduce((n, c) => n + (c.codePointAt(0)! > 255 ? 2 : /[\p{L}\p{N}]/u.test(c) ? 1 : 4), 0);
        expect(nameByteLength(chars.join(''))).toBe(expected);
      }),
    );
    expect(nameByteLength('a-b')).toBe(6);
    expect(nameByteLength('中文')).toBe(4);
  });

  it('refuses a name over 255 counted bytes and accepts one at the limit (230 for Safari)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 400 }), fc.constantFrom('a', '中', '_'), (n, ch) => {
        const name = `x${ch.repeat(n)}`;
        const bytes = nameByteLength(name);
        expect(nameProblem(name, 'folder') === 'tooLong').toBe(bytes > NAME_MAX_BYTES);
        expect(nameProblem(name, 'folder', { maxBytes: SAFARI_NAME_MAX_BYTES }) === 'tooLong').toBe(bytes > SAFARI_NAME_MAX_BYTES);
      }),
    );
  });

  it('refuses a leading dot, dot-only names, a dot in a folder name and .app files', () => {
    fc.assert(
      fc.property(letters, kind, (name, k) => {
        expect(nameProblem(`.${name}`, k)).toBe('leadingDot');
        expect(nameProblem(`${name}.x`, 'folder')).toBe('dotInFolderName');
        expect(nameProblem(`${name}.APP`, 'file')).toBe('appFile');
      }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10 }), kind, (n, k) => {
        expect(nameProblem('.'.repeat(n), k)).toBe('dotOnly');
      }),
    );
    expect(nameProblem('', 'file')).toBe('empty');
    expect(nameProblem('   ', 'folder')).toBe('empty');
  });

  it('refuses the reserved names in any case and with any extension', () => {
    fc.assert(
      fc.property(fc.constantFrom('CON', 'prn', 'Aux', 'nul', 'COM1', 'lpt9'), fc.option(letters, { nil: undefined }), (name, ext) => {
        expect(nameProblem(ext ? `${name}.${ext}` : name, ext ? 'file' : 'folder')).toBe('forbiddenName');
      }),
    );
  });

  it('refuses profanity as a whole word only', () => {
    expect(nameProblem('my shit list', 'folder')).toBe('profanity');
    expect(nameProblem('Merda', 'folder')).toBe('profanity');
    expect(nameProblem('Scunthorpe', 'folder')).toBeNull();
    expect(nameProblem('shitake recipes', 'folder')).toBeNull();
  });

  it('picks a free "name (n).ext" that no taken name collides with', () => {
    fc.assert(
      fc.property(letters, fc.option(letters, { nil: undefined }), fc.integer({ min: 0, max: 5 }), (stem, ext, already) => {
        const name = ext ? `${stem}.${ext}` : stem;
        const taken = new Set([nameKey(name)]);
        for (let i = 1; i <= already; i++) taken.add(nameKey(ext ? `${stem} (${i}).${ext}` : `${stem} (${i})`));
        const picked = freeName(name, ext ? 'file' : 'folder', (k) => taken.has(k));
        expect(taken.has(nameKey(picked))).toBe(false);
        expect(picked).toBe(ext ? `${stem} (${already + 1}).${ext}` : `${stem} (${already + 1})`);
      }),
    );
  });
});
