import { createInstance } from 'i18next';
import { describe, expect, it } from 'vitest';
import { catalogues } from '../../i18n/catalogues';
import { deviceWords, senderLabel } from './share-sender';

const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';
const SAFARI_IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const ANDROID_WEBVIEW = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko)';

const translator = async (lng: keyof typeof catalogues) => {
  const i18n = createInstance();
  await i18n.init({ resources: { [lng]: { translation: catalogues[lng] } }, lng, interpolation: { escapeValue: false } });
  return i18n.t;
};

describe('who shared it', () => {
  it('names the sender by name and e-mail, by either alone, or not at all', () => {
    expect(senderLabel({ ownerName: 'Ana Lima', ownerEmail: 'ana@example.com' })).toBe('Ana Lima (ana@example.com)');
    expect(senderLabel({ ownerName: 'Ana Lima', ownerEmail: null })).toBe('Ana Lima');
    expect(senderLabel({ ownerName: '  ', ownerEmail: 'ana@example.com' })).toBe('ana@example.com');
    expect(senderLabel({})).toBeNull();
  });
});

describe('the browser of an access, in words', () => {
  it('reads a user agent as browser and system, in each locale', async () => {
    expect(deviceWords(FIREFOX_WINDOWS, await translator('en_us'))).toBe('Firefox on Windows');
    expect(deviceWords(SAFARI_IPHONE, await translator('es_mx'))).toBe('Safari en iPhone');
    expect(deviceWords(FIREFOX_WINDOWS, await translator('pt_br'))).toBe('Firefox no Windows');
    expect(deviceWords(FIREFOX_WINDOWS, await translator('nl'))).toBe('Firefox op Windows');
  });

  it('says what it can when the user agent names only part, and that it is unknown when it names nothing', async () => {
    const t = await translator('en_us');
    expect(deviceWords(ANDROID_WEBVIEW, t)).toBe('A browser on Android');
    expect(deviceWords('curl/8.5.0', t)).toBe('Unknown browser');
    expect(deviceWords(null, t)).toBe('Unknown browser');
    expect(deviceWords('[erased]', await translator('nl'))).toBe('Onbekende browser');
  });
});
