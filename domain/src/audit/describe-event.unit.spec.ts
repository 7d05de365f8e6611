import { describe, expect, it } from 'vitest';
import { allEventDefinitions } from '../shared/all-event-definitions';
import { ERASED } from '../shared/events';
import { ACTIVITY_LOCALES, activityLocaleOf, describeEvent, hasSentence, humanizeEventType, sentenceTypes } from './describe-event';

describe('describeEvent', () => {
  it('has a sentence in every locale for every registered event type, so a new event cannot reach the log unworded', () => {
    const definitions = allEventDefinitions();
    expect(definitions.length).toBeGreaterThan(50);
    expect(ACTIVITY_LOCALES).toEqual(['en', 'es', 'pt', 'nl']);
    for (const locale of ACTIVITY_LOCALES) {
      const missing = definitions.map((d) => d.type).filter((type) => !hasSentence(type, locale));
      expect({ locale, missing }).toEqual({ locale, missing: [] });
    }
  });

  it('words the same event types in every locale as in English (no stale or extra translations)', () => {
    const english = sentenceTypes('en').sort();
    for (const locale of ACTIVITY_LOCALES) expect({ locale, types: sentenceTypes(locale).sort() }).toEqual({ locale, types: english });
  });

  it('words the same event in each locale', () => {
    const renamed = { type: 'ItemRenamed', data: { name: 'report.pdf' } };
    expect(describeEvent(renamed, 'en')).toBe('Renamed an item to "report.pdf"');
    expect(describeEvent(renamed, 'es')).toBe('Elemento renombrado a "report.pdf"');
    expect(describeEvent(renamed, 'pt')).toBe('Item renomeado para "report.pdf"');
    expect(describeEvent(renamed, 'nl')).toBe('Een item hernoemd naar "report.pdf"');
    const firefox = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0';
    expect(describeEvent({ type: 'SignInSucceeded', data: { userAgent: firefox } }, 'pt')).toBe('Entrou pelo Firefox no Windows');
    expect(describeEvent({ type: 'FileAdded', data: { name: 'a.txt', size: 2048 } }, 'nl')).toBe('Bestand "a.txt" geüpload (2 KB)');
    expect(describeEvent({ type: 'PromoCodeCreated', data: { code: 'SPRING', status: 'active', discount: { amount: 20, unit: 'percent' } } }, 'es')).toBe(
      'Código promocional SPRING creado (active, 20% de descuento)',
    );
  });

  it("reads the web app's and the browser's language tags as activity locales", () => {
    expect(activityLocaleOf('pt_br')).toBe('pt');
    expect(activityLocaleOf('pt-BR')).toBe('pt');
    expect(activityLocaleOf('es_mx')).toBe('es');
    expect(activityLocaleOf('nl')).toBe('nl');
    expect(activityLocaleOf('en_us')).toBe('en');
    expect(activityLocaleOf('fr')).toBe('en');
    expect(activityLocaleOf(undefined)).toBe('en');
    expect(describeEvent({ type: 'TermsAccepted', data: {} }, 'pt_br')).toBe('Termos aceitos');
  });

  it('words an event from its data', () => {
    expect(describeEvent({ type: 'EmailChanged', data: { oldEmail: 'a@x.com', newEmail: 'b@x.com' } }, 'en')).toBe('E-mail changed from a@x.com to b@x.com');
    expect(describeEvent({ type: 'ProfileUpdated', data: { changes: { firstName: 'Ada', city: 'London' } } })).toBe('Profile updated: firstName, city');
    expect(describeEvent({ type: 'FileAdded', data: { name: 'report.pdf', size: 1536 } })).toBe('Uploaded file "report.pdf" (1.5 KB)');
    expect(describeEvent({ type: 'ChainTransferAccepted', data: { amount: 150_000_000, from: 'A1', to: 'B2' } })).toBe('1.5 AXEL sent from A1 to B2');
    expect(describeEvent({ type: 'PaymentRecorded', data: { amount: 1299, productId: 'pro', status: 'paid' } })).toBe('Payment of $12.99 for pro: paid');
    expect(describeEvent({ type: 'PromoCodeCreated', data: { code: 'SPRING', status: 'active', discount: { amount: 20, unit: 'percent' } } })).toBe(
      'Promo code SPRING created (active, 20% off)',
    );
    const firefox = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0';
    expect(describeEvent({ type: 'SignInSucceeded', data: { userAgent: firefox } })).toBe('Signed in from Firefox on Windows');
    expect(describeEvent({ type: 'SignInSucceeded', data: { userAgent: ERASED } })).toBe('Signed in');
    expect(describeEvent({ type: 'SignInFailed', data: { reason: 'two_factor', failedAttempts: 2 } })).toBe(
      'Sign-in failed: wrong verification code (attempt 2)',
    );
  });

  it('writes sizes in decimal units, as plans and the web app count them: a 100 GB quota reads 100 GB', () => {
    expect(describeEvent({ type: 'StorageQuotaChanged', data: { sizeTotal: 100_000_000_000 } })).toBe('Storage quota set to 100 GB');
    expect(describeEvent({ type: 'StorageOpened', data: { type: 'online', sizeTotal: 10_000_000_000 } })).toBe('Online storage of 10 GB opened');
    expect(describeEvent({ type: 'ItemTrashed', data: { size: 2_500_000 } }, 'nl')).toBe('Een item naar de prullenbak verplaatst (2,5 MB)');
  });

  it('names plans by their name and cycle, not their catalogue id', () => {
    const started = { type: 'SubscriptionStarted', data: { productId: 100, cycle: 'month', nextPaymentDate: null } };
    expect(describeEvent(started)).toBe('Subscription to Starter started (monthly), next payment none');
    expect(describeEvent(started, 'es')).toBe('Suscripción a Starter iniciada (mensual), próximo pago ninguno');
    expect(describeEvent({ type: 'PaymentRecorded', data: { amount: 999, productId: 101, status: 'succeeded' } })).toBe(
      'Payment of $9.99 for Starter: succeeded',
    );
    expect(describeEvent({ type: 'CheckoutStarted', data: { productId: 99999, quantity: 1, amount: 0 } })).toBe('Checkout started for 99999 x1 at $0.00');
  });

  it("writes instants in the reader's language and time zone, never as ISO text", () => {
    const canceled = { type: 'SubscriptionCanceled', data: { by: 'user', endDate: '2026-12-27T18:22:23.637Z' } };
    expect(describeEvent(canceled, 'en', { timeZone: 'America/New_York' })).toMatch(/^Subscription canceled by the user, ends Dec 27, 2026, 1:22\sPM$/);
    expect(describeEvent(canceled, 'en', { timeZone: 'Asia/Tokyo' })).toMatch(/ends Dec 28, 2026, 3:22\sAM$/);
    expect(describeEvent(canceled, 'nl', { timeZone: 'Europe/Amsterdam' })).toBe('Abonnement opgezegd door de gebruiker, eindigt 27 dec 2026, 19:22');
    // no zone, or one the server does not know: UTC
    expect(describeEvent(canceled, 'en', { timeZone: 'Mars/Olympus' })).toMatch(/ends Dec 27, 2026, 6:22\sPM$/);
    expect(describeEvent({ type: 'UserBlocked', data: { until: '2026-01-02T03:04:05.000Z' } }, 'pt', { timeZone: 'UTC' })).toBe(
      'Bloqueado até 2 de jan. de 2026, 03:04',
    );
    expect(describeEvent({ type: 'UserBlocked', data: { until: 'not a date' } })).toBe('Blocked until not a date');
  });

  it('says erased where a personal field was forgotten', () => {
    expect(describeEvent({ type: 'EmailChanged', data: { oldEmail: ERASED, newEmail: ERASED } })).toBe(`E-mail changed from ${ERASED} to ${ERASED}`);
  });

  it('falls back to the type in words for an unknown type or an unknown locale', () => {
    expect(describeEvent({ type: 'ShareLinkOpenedTwice', data: {} })).toBe('Share link opened twice');
    expect(humanizeEventType('HTTPRequestSent')).toBe('Http request sent');
    expect(describeEvent({ type: 'TermsAccepted', data: {} }, 'xx')).toBe('Terms accepted');
  });
});
