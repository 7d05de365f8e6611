import { createInstance } from 'i18next';
import { renderToStaticMarkup } from 'react-dom/server';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { MemoryRouter, Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { catalogues } from '../../i18n/catalogues';
import { matchRoute } from '../../routing/routeTable';
import { TransactionIdPage } from './TransactionIdPage';

const render = async (lng: keyof typeof catalogues, url: string) => {
  const i18n = createInstance();
  await i18n.use(initReactI18next).init({ resources: { [lng]: { translation: catalogues[lng] } }, lng, interpolation: { escapeValue: false } });
  return renderToStaticMarkup(
    <I18nextProvider i18n={i18n}>
      <MemoryRouter initialEntries={[url]}>
        <Routes>
          <Route path="/transaction/:id" element={<TransactionIdPage />} />
        </Routes>
      </MemoryRouter>
    </I18nextProvider>,
  );
};

const TITLES = {
  en_us: 'Invalid transaction ID',
  es_mx: 'ID de transacción no válido',
  nl: 'Ongeldig transactie-ID',
  pt_br: 'ID de transação inválido',
} as const;

describe('/transaction/:id in the web app', () => {
  it('is its own screen, not the "not available" page', () => {
    expect(matchRoute('/transaction/abc123')?.def.screen).toBe('transactionId');
  });

  it.each(Object.keys(catalogues) as (keyof typeof catalogues)[])('%s: a short id is called invalid, with the rule and a way to search', async (lng) => {
    const html = await render(lng, '/transaction/abc123');
    expect(html).toContain('data-testid="transaction-id-invalid"');
    expect(html).toContain(TITLES[lng]);
    expect(html).toContain('abc123');
    expect(html).toMatch(/20/);
    expect(html).toContain('href="/transaction/search"');
  });

  it('calls an id with other characters invalid too, and a well-formed one not', async () => {
    expect(await render('en_us', '/transaction/has-dash-not-alphanumeric-xx')).toContain('transaction-id-invalid');
    expect(await render('en_us', '/transaction/ABCDEFGHIJ0123456789')).not.toContain('transaction-id-invalid');
  });
});
