import { ShareAccessErrors } from '@axel/domain/sharing/share-access';
import { SharingErrors } from '@axel/domain/sharing/sharing.errors';
import { describe, expect, it } from 'vitest';
import { catalogues, type Tree } from '../../i18n/catalogues';
import { CREDENTIAL_CODES } from './share-access.machine';
import { SHARE_FIELD_CODES } from './share-create.machine';
import type { ShareState } from './share-status';
import type { ShareKind } from './sharing.types';

const flatten = (tree: Tree, prefix = ''): Record<string, string> =>
  Object.entries(tree).reduce<Record<string, string>>((out, [k, v]) => {
    const key = prefix ? `${prefix}.${k}` : k;
    return typeof v === 'string' ? { ...out, [key]: v } : { ...out, ...flatten(v, key) };
  }, {});

const KINDS = { public: true, private: true } satisfies Record<ShareKind, true>;
const STATES = { active: true, revoked: true, expired: true } satisfies Record<ShareState, true>;

describe('share page texts', () => {
  const built = [
    ...Object.keys(KINDS).map((k) => `sharing.kind.${k}`),
    ...Object.keys(STATES).map((s) => `sharing.state.${s}`),
    // The access log's actions (the share access projection writes these).
    ...['open', 'download', 'archive'].map((a) => `sharing.log.actions.${a}`),
    ...Object.values(SharingErrors).map((e) => `errors.${e.code}`),
    ...Object.values(ShareAccessErrors).map((e) => `errors.${e.code}`),
    ...Object.keys(CREDENTIAL_CODES).map((c) => `errors.${c}`),
    ...Object.keys(SHARE_FIELD_CODES).map((c) => `errors.${c}`),
    'errors.LINK_EXPIRED',
  ];

  it.each(Object.entries(catalogues))('%s has the keys the share screens build at run time', (_, catalogue) => {
    const flat = flatten(catalogue);
    expect(built.filter((key) => !flat[key]?.trim())).toEqual([]);
  });

  it('every locale has the same sharing keys as en_us', () => {
    const keys = (c: Tree) =>
      Object.keys(flatten(c))
        .filter((k) => k.startsWith('sharing.'))
        .sort();
    const en = keys(catalogues.en_us);
    expect(en.length).toBeGreaterThan(50);
    for (const c of Object.values(catalogues)) expect(keys(c)).toEqual(en);
  });
});
