import { MAIL_TEMPLATES } from '@axel/domain/mail/mail.events';
import { describe, expect, it } from 'vitest';
import { PRODUCT_NAME, renderMail } from './templates';

const LOCALES = ['en_us', 'es_mx', 'pt_br', 'nl'];
const params = { link: 'https://drive.example/x/abc', code: '123456', email: 'new@example.com', days: 30 };

describe('mail templates', () => {
  it('has every template in every locale, each its own words, signed with the product name spelled one way', () => {
    for (const template of MAIL_TEMPLATES) {
      const subjects = new Set<string>();
      for (const locale of LOCALES) {
        const mail = renderMail(template, locale, params);
        subjects.add(mail.subject);
        expect(mail.text).toContain(PRODUCT_NAME);
        expect(mail.html).toContain(PRODUCT_NAME);
        const spellings = `${mail.subject}\n${mail.text}\n${mail.html}`.match(/axel\s*drive/gi) ?? [];
        expect(new Set(spellings)).toEqual(new Set([PRODUCT_NAME]));
      }
      expect(subjects.size, `${template} is translated`).toBe(LOCALES.length);
    }
  });

  it('tells the old address of an e-mail change where the account went', () => {
    expect(renderMail('email-changed', 'pt_br', { email: 'new@example.com' }).text).toContain('new@example.com');
  });
});
