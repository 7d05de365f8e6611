import { BillingErrors } from '@axel/domain/billing/billing.errors';
import { describe, expect, it } from 'vitest';
import { catalogues, type Tree } from '../../i18n/catalogues';

const errorsOf = (tree: Tree) => tree.errors as Tree;

describe('billing texts', () => {
  it.each(Object.entries(catalogues))('%s words every billing error code, with the values its message names', (_, catalogue) => {
    for (const error of Object.values(BillingErrors)) {
      const text = errorsOf(catalogue)[String(error.code)];
      expect(typeof text, String(error.code)).toBe('string');
      for (const [, name] of error.message.matchAll(/\{\{(\w+)\}\}/g)) expect(text, String(error.code)).toContain(`{{${name}}}`);
    }
  });
});
