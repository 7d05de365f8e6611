import { BACKUP_PLATFORMS } from '@axel/domain/backups/backups.events';
import { DATA_REGIONS, STORAGE_REGIONS } from '@axel/domain/residency/residency';
import { describe, expect, it } from 'vitest';
import { catalogues, type Tree } from '../../i18n/catalogues';

const flatten = (tree: Tree, prefix = ''): Record<string, string> =>
  Object.entries(tree).reduce<Record<string, string>>((out, [k, v]) => {
    const key = prefix ? `${prefix}.${k}` : k;
    return typeof v === 'string' ? { ...out, [key]: v } : { ...out, ...flatten(v, key) };
  }, {});

/** The server's answers a user can meet on these screens: each reads in the user's language. */
const USER_FACING_CODES = [
  'CLOUDLOCKER_SERIAL_REQUIRED',
  'CLOUDLOCKER_MAC_REQUIRED',
  'CLOUDLOCKER_SERIAL_INVALID',
  'CLOUDLOCKER_MAC_INVALID',
  'CLOUDLOCKER_NOT_FOUND',
  'CLOUDLOCKER_ALREADY_BOUND',
  'CLOUDLOCKER_NOT_BOUND',
  'CLOUDLOCKER_CLAIM_EXPIRED',
  'CLOUDLOCKER_CONFIRM_DELETE',
  'BACKUP_ACTIVE',
  'BACKUP_NOT_FOUND',
  'REGION_INVALID',
];

describe('CloudLocker, backup and region texts', () => {
  const built = [
    ...DATA_REGIONS.map((r) => `devices.region.options.${r}`),
    ...[...STORAGE_REGIONS, 'home'].map((r) => `devices.region.report.places.${r}`),
    ...BACKUP_PLATFORMS.map((p) => `devices.backups.platforms.${p}`),
    ...USER_FACING_CODES.map((c) => `errors.${c}`),
    'settings.tabs.cloudlockers',
    'settings.tabs.backup',
    'nav.cloudlockers',
  ];

  it.each(Object.entries(catalogues))('%s has the keys these screens build at run time', (_, catalogue) => {
    const flat = flatten(catalogue);
    expect(built.filter((key) => !flat[key]?.trim())).toEqual([]);
  });

  it('has the same device keys in every locale, and the confirmation word stays delete (the server checks it as typed)', () => {
    const keys = Object.entries(catalogues).map(([, c]) =>
      Object.keys(flatten(c))
        .filter((k) => k.startsWith('devices.'))
        .sort(),
    );
    for (const k of keys) expect(k).toEqual(keys[0]);
    for (const c of Object.values(catalogues)) {
      const flat = flatten(c);
      expect(flat['devices.unbind.body']).toContain('delete');
      expect(flat['devices.delete.body']).toContain('delete');
    }
  });

  it('names the spec’s regions, Africa as the African Union', () => {
    expect(flatten(catalogues.en_us)['devices.region.options.africa']).toBe('Africa (African Union)');
  });
});
