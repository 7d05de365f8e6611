import { describe, expect, it } from 'vitest';
import { catalogues, type Tree } from '../../i18n/catalogues';
import { shareBlocked } from './share-blocked';

const lookup = (tree: Tree, key: string) =>
  key.split('.').reduce<Tree | string | undefined>((node, part) => (typeof node === 'object' ? node[part] : undefined), tree);

describe('why the cart cannot be shared yet', () => {
  it('says what is missing, the running work first', () => {
    expect(shareBlocked({ busy: true, uploading: true, title: '' })).toBe('cart.shareBlocked.busy');
    expect(shareBlocked({ busy: false, uploading: true, title: '' })).toBe('cart.shareBlocked.uploading');
    expect(shareBlocked({ busy: false, uploading: false, title: '   ' })).toBe('cart.shareBlocked.title');
    expect(shareBlocked({ busy: false, uploading: false, title: 'Holiday' })).toBeNull();
  });

  it.each(Object.entries(catalogues))('%s has a hint for every reason', (_, catalogue) => {
    for (const key of ['cart.shareBlocked.busy', 'cart.shareBlocked.uploading', 'cart.shareBlocked.title']) {
      const text = lookup(catalogue, key);
      expect(typeof text === 'string' && text.trim().length > 0, key).toBe(true);
    }
  });
});
