import { createInstance } from 'i18next';
import { renderToStaticMarkup } from 'react-dom/server';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { catalogues } from '../../i18n/catalogues';
import { hasPaymentResult, PaymentResultPage, resultFromQuery } from './PaymentResultPage';

const render = async (lng: keyof typeof catalogues, url: string) => {
  const i18n = createInstance();
  await i18n.use(initReactI18next).init({ resources: { [lng]: { translation: catalogues[lng] } }, lng, interpolation: { escapeValue: false } });
  return renderToStaticMarkup(
    <I18nextProvider i18n={i18n}>
      <MemoryRouter initialEntries={[url]}>
        <PaymentResultPage />
      </MemoryRouter>
    </I18nextProvider>,
  );
};

const NONE_TITLES = {
  en_us: 'No payment to show',
  es_mx: 'No hay ningún pago que mostrar',
  nl: 'Geen betaling om te tonen',
  pt_br: 'Nenhum pagamento para mostrar',
} as const;

describe('payment result page', () => {
  it('knows an address without a result from one with a declined result', () => {
    expect(hasPaymentResult(new URLSearchParams(''))).toBe(false);
    expect(hasPaymentResult(new URLSearchParams('status='))).toBe(false);
    expect(hasPaymentResult(new URLSearchParams('status=declined'))).toBe(true);
    expect(hasPaymentResult(new URLSearchParams('success=true'))).toBe(true);
    expect(resultFromQuery(new URLSearchParams('status=paid'))).toBe('success');
  });

  it.each(Object.keys(catalogues) as (keyof typeof catalogues)[])(
    '%s: with no parameters it says there is no payment to show, with a link to the plans',
    async (lng) => {
      const html = await render(lng, '/storages/result');
      expect(html).toContain('data-testid="payment-result-none"');
      expect(html).toContain(NONE_TITLES[lng]);
      expect(html).toContain('href="/storages/plans"');
      expect(html).not.toContain('payment-result-declined');
    },
  );

  it('still says a payment was declined when the provider says so', async () => {
    const html = await render('en_us', '/storages/result?status=declined');
    expect(html).toContain('payment-result-declined');
  });
});
