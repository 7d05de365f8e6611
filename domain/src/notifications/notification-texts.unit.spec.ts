import { describe, expect, it } from 'vitest';
import { NOTICE_KINDS, NOTICE_LOCALES, renderNotice } from './notification-texts';

describe('notices in words', () => {
  it("names the browser and system of a new sign-in in the reader's language", () => {
    const device = { browser: 'Firefox', system: 'Windows' };
    expect(renderNotice('sign_in', device, 'en_us')).toEqual({ title: 'New sign-in', body: 'A new sign-in to your account from Firefox on Windows.' });
    expect(renderNotice('sign_in', device, 'es_mx').body).toBe('Nuevo inicio de sesión en tu cuenta desde Firefox en Windows.');
    expect(renderNotice('sign_in', { browser: 'Safari', system: 'iPhone' }, 'pt_br')).toEqual({
      title: 'Novo acesso',
      body: 'Um novo acesso à sua conta (Safari no iPhone).',
    });
    expect(renderNotice('sign_in', { browser: 'Chrome', system: 'Android' }, 'nl').body).toBe('Een nieuwe aanmelding op je account vanaf Chrome op Android.');
  });

  it('says what it knows of the device, and no more', () => {
    expect(renderNotice('sign_in', { browser: null, system: 'Android' }, 'en_us').body).toBe('A new sign-in to your account from a browser on Android.');
    expect(renderNotice('sign_in', { browser: 'Firefox', system: null }, 'en_us').body).toBe('A new sign-in to your account from Firefox.');
    expect(renderNotice('sign_in', {}, 'en_us').body).toBe('A new sign-in to your account.');
  });

  it('has every notice in every language, each in its own words', () => {
    for (const kind of NOTICE_KINDS) {
      const titles = new Set(NOTICE_LOCALES.map((locale) => renderNotice(kind, { email: 'a@example.com' }, locale).title));
      expect(titles.size, kind).toBe(NOTICE_LOCALES.length);
      for (const locale of NOTICE_LOCALES) expect(renderNotice(kind, { email: 'a@example.com' }, locale).body, `${kind} ${locale}`).not.toBe('');
    }
  });

  it('falls back to English for a language the product does not have', () => {
    expect(renderNotice('two_factor_disabled', {}, 'fr')).toEqual(renderNotice('two_factor_disabled', {}, 'en_us'));
  });
});
