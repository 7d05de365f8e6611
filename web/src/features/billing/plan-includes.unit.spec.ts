import { describe, expect, it } from 'vitest';
import { toProduct } from './billing.normalise';
import { includedLines } from './plan-includes';

/** A plan as GET /api/products/ answers it (the catalogue's grants, §6). */
const answer = (over: Record<string, unknown>) => ({
  id: 1,
  name: 'Plan',
  type: 'plan',
  price: 999,
  validity: 'month',
  weight: 10,
  includedAccounts: 0,
  permissions: [],
  features: [],
  assets: {
    quota: { sizeTotal: 10_000_000_000 },
    'extra-group-quota': { sizeTotal: 0 },
    'secure-fetch': { maxCountPerPeriod: 5 },
    'secure-share': { maxCountPerPeriod: 5 },
  },
  ...over,
});

const keys = (raw: Record<string, unknown>) => includedLines(toProduct(raw).includes!);

describe('what a plan card lists', () => {
  it('Basic: its monthly shares and fetches and the 10 MiB shared-file limit, nothing more', () => {
    expect(includedLines(toProduct(answer({ permissions: ['secure-fetch'] })).includes!)).toEqual([
      { key: 'shares', count: 5 },
      { key: 'fetches', count: 5 },
      { key: 'sharedFileSize', mebibytes: 10 },
    ]);
  });

  it("a team plan: its accounts, the group's storage, unlimited counts and its features in the catalogue's order", () => {
    const raw = answer({
      includedAccounts: 10,
      permissions: ['dropbox', 'secure-fetch', 'unlimited-shared-file-size'],
      features: ['api', 'esign', 'two-factor'],
      assets: {
        quota: { sizeTotal: 1 },
        'extra-group-quota': { sizeTotal: 100_000_000_000 },
        'secure-fetch': { maxCountPerPeriod: null },
        'secure-share': { maxCountPerPeriod: null },
      },
    });
    expect(keys(raw)).toEqual([
      { key: 'accounts', count: 10 },
      { key: 'groupStorage', bytes: 100_000_000_000 },
      { key: 'sharesUnlimited' },
      { key: 'fetchesUnlimited' },
      { key: 'sharedFileSizeUnlimited' },
      { key: 'feature.esign' },
      { key: 'feature.two-factor' },
      { key: 'feature.api' },
    ]);
  });

  it('no Secure Fetch line without the permission, and no list for an answer that carries no grants', () => {
    expect(keys(answer({})).map((l) => l.key)).not.toContain('fetches');
    expect(toProduct({ id: 5, name: 'Extra', type: 'extra-members', price: 200 }).includes).toBeNull();
  });
});
