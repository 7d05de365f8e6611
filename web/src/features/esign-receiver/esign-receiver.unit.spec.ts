import { EsignErrors } from '@axel/domain/esign/esign.errors';
import { matchRoute } from '../../routing/routeTable';
import { describe, expect, it } from 'vitest';
import { catalogues, type Tree } from '../../i18n/catalogues';
import { createReceiverClient, isLinkId, PIN_KINDS } from './esign-receiver.api';
import { fieldContent, initialsOf, shownBox, signerColor } from './signature-text';

const flatten = (tree: Tree, prefix = ''): Record<string, string> =>
  Object.entries(tree).reduce<Record<string, string>>((out, [k, v]) => {
    const key = prefix ? `${prefix}.${k}` : k;
    return typeof v === 'string' ? { ...out, [key]: v } : { ...out, ...flatten(v, key) };
  }, {});

/** The refusals a signer's calls can answer (the owner's plan and draft-editing ones never reach them). */
const RECEIVER_CODES = [
  EsignErrors.wrongPassword,
  EsignErrors.passwordRequired,
  EsignErrors.linkNotFound,
  EsignErrors.locked,
  EsignErrors.alreadySigned,
  EsignErrors.notYourTurn,
  EsignErrors.notSigned,
  EsignErrors.completed,
  EsignErrors.notAwaiting,
  EsignErrors.archived,
  EsignErrors.invalidSignature,
  EsignErrors.documentNotReady,
  EsignErrors.entryNotFound,
].map((e) => e.code);

describe('the signer page texts', () => {
  it.each(['en_us', 'es_mx', 'pt_br'] as const)('%s has every refusal a signer can meet and every field kind', (locale) => {
    const flat = flatten(catalogues[locale]);
    const built = [...RECEIVER_CODES.map((c) => `esignReceiver.errors.${c}`), ...PIN_KINDS.map((k) => `esignReceiver.pin.${k}`)];
    expect(built.filter((key) => !flat[key]?.trim())).toEqual([]);
  });

  it('the English refusals are the server messages a signer is shown (wrong password, locked while another user signs)', () => {
    const flat = flatten(catalogues.en_us);
    expect(flat['esignReceiver.errors.ESIGN_WRONG_PASSWORD']).toBe(EsignErrors.wrongPassword.message);
    expect(flat['esignReceiver.errors.ESIGN_LOCKED']).toBe(EsignErrors.locked.message);
    expect(flat['esignReceiver.errors.ESIGN_ALREADY_SIGNED']).toBe(EsignErrors.alreadySigned.message);
  });

  it('es_mx and pt_br have exactly the English keys of the signer page', () => {
    const keys = (locale: 'en_us' | 'es_mx' | 'pt_br') =>
      Object.keys(flatten(catalogues[locale]))
        .filter((k) => k.startsWith('esignReceiver.'))
        .sort();
    expect(keys('es_mx')).toEqual(keys('en_us'));
    expect(keys('pt_br')).toEqual(keys('en_us'));
  });
});

describe('what a filled field shows', () => {
  const now = new Date('2026-03-04T22:00:00Z');
  it('a typed signature in the script face, its initials, the date of today and the signer name', () => {
    const typed = { type: 'typed', text: 'ada  de la Vega' } as const;
    expect(fieldContent('signature', typed, 'Ada', now)).toEqual({ kind: 'text', text: 'ada  de la Vega', script: true });
    expect(fieldContent('initials', typed, 'Ada', now)).toEqual({ kind: 'text', text: 'ADLV', script: true });
    expect(fieldContent('date', null, 'Ada', now)).toEqual({ kind: 'text', text: '2026-03-04', script: false });
    expect(fieldContent('text', null, 'Ada Lovelace', now)).toEqual({ kind: 'text', text: 'Ada Lovelace', script: false });
  });

  it('a drawn signature is its image in both signature and initials fields; without a signature they stay empty', () => {
    const drawn = { type: 'drawn', image: 'data:image/png;base64,AAAA' } as const;
    expect(fieldContent('signature', drawn, 'Ada')).toEqual({ kind: 'image', src: drawn.image });
    expect(fieldContent('initials', drawn, 'Ada')).toEqual({ kind: 'image', src: drawn.image });
    expect(fieldContent('signature', null, 'Ada')).toBeNull();
  });

  it('initials are at most four letters; colours 1 to 10 are ten different ones', () => {
    expect(initialsOf('a b c d e f')).toBe('ABCD');
    expect(new Set(Array.from({ length: 10 }, (_, i) => signerColor(i + 1))).size).toBe(10);
  });
});

describe('the signer calls', () => {
  const LINK = 'abcdefghijklmnopqrstuv';
  it('send the package password as `Password <password>` and answer refusals as { code, message, data }', async () => {
    const seen: { url: string; auth: string | null }[] = [];
    const client = createReceiverClient({
      fetch: async (input, init) => {
        seen.push({ url: String(input), auth: new Headers(init?.headers).get('authorization') });
        return new Response(JSON.stringify({ code: 'ESIGN_WRONG_PASSWORD', message: 'Wrong password', data: null }), {
          status: 403,
          headers: { 'content-type': 'application/json' },
        });
      },
    });
    await expect(client.view(LINK, 'pass word')).rejects.toMatchObject({ code: 'ESIGN_WRONG_PASSWORD', message: 'Wrong password', status: 403 });
    expect(seen).toEqual([{ url: `/api/esign-package-links/${LINK}/`, auth: 'Password pass word' }]);
  });

  it('a link id is the 22 base64url characters the server makes', () => {
    expect(isLinkId(LINK)).toBe(true);
    expect(isLinkId('list')).toBe(false);
    expect(isLinkId(undefined)).toBe(false);
  });
});

describe('a field on a turned page', () => {
  const box = { x: 0.1, y: 0.2, width: 0.3, height: 0.05 };
  it('stays where it is on an upright page and turns with a page shown turned by /Rotate', () => {
    expect(shownBox(box, 0)).toEqual(box);
    // turned a quarter clockwise: the unrotated top-left corner is now top-right
    expect(shownBox(box, 90)).toEqual({ x: 0.75, y: 0.1, width: 0.05, height: 0.3 });
    expect(shownBox(box, 180)).toMatchObject({ x: 0.6, y: 0.75, width: 0.3, height: 0.05 });
    expect(shownBox(box, 270)).toMatchObject({ x: 0.2, y: 0.6, width: 0.05, height: 0.3 });
    expect(shownBox(box, -90)).toEqual(shownBox(box, 270));
  });
});

describe('the signer routes', () => {
  it("the mail's /esigns/<link>, /receiver/signing/<link> and the mobile /esign/<link> open the signer page without sign-in; the owner's /esigns/list stays theirs", () => {
    const link = 'abcdefghijklmnopqrstuv';
    for (const path of [`/esigns/${link}`, `/receiver/signing/${link}`, `/esign/${link}`]) {
      expect(matchRoute(path)?.def, path).toMatchObject({ screen: 'esignReceiver', access: 'public' });
    }
    expect(matchRoute('/esigns/list')?.def).toMatchObject({ access: 'auth' });
  });
});
