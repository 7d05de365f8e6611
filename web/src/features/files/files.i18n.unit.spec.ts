import type { NameProblem } from '@axel/domain/storage/storage.names';
import { StorageErrors } from '@axel/domain/storage/storage.errors';
import { PERMISSION_LEVELS } from '@axel/domain/teams/permissions';
import { createInstance } from 'i18next';
import { describe, expect, it } from 'vitest';
import { translateError } from '../../components/i18nHelpers';
import { catalogues, type Tree } from '../../i18n/catalogues';
import { DETAIL_FIELDS } from './DetailsPanel';
import type { UploadStatus } from './upload-queue.machine';

const flatten = (tree: Tree, prefix = ''): Record<string, string> =>
  Object.entries(tree).reduce<Record<string, string>>((out, [k, v]) => {
    const key = prefix ? `${prefix}.${k}` : k;
    return typeof v === 'string' ? { ...out, [key]: v } : { ...out, ...flatten(v, key) };
  }, {});

/** Every value of the unions, so a new name rule or upload state fails here until it has its text. */
const NAME_PROBLEMS = {
  empty: true,
  forbiddenCharacters: true,
  controlCharacters: true,
  emoji: true,
  tooLong: true,
  leadingDot: true,
  dotOnly: true,
  dotInFolderName: true,
  forbiddenName: true,
  appFile: true,
  profanity: true,
} satisfies Record<NameProblem, true>;
const STATUSES = { pending: true, progress: true, paused: true, saving: true, done: true, failed: true, cancelled: true, interrupted: true } satisfies Record<
  UploadStatus,
  true
>;

describe('file browser texts', () => {
  const built = [
    ...Object.keys(NAME_PROBLEMS).map((p) => `files.nameProblems.${p}`),
    ...Object.keys(STATUSES).map((s) => `files.upload.status.${s}`),
    ...DETAIL_FIELDS.map((f) => `files.details.fields.${f}`),
    ...['archive', 'trash', 'restore'].map((w) => `files.working.${w}`),
    ...PERMISSION_LEVELS.map((l) => `files.permissions.levels.${l}`),
    ...['admin', 'co_admin_member'].map((r) => `files.permissions.byRole.${r}`),
    ...Object.values(StorageErrors).map((e) => `errors.${e.code}`),
    'errors.INVALID_NAME',
    'errors.TASK_FAILED',
  ];

  it.each(Object.entries(catalogues))('%s has the keys the file screens build at run time', (_, catalogue) => {
    const flat = flatten(catalogue);
    expect(built.filter((key) => !flat[key]?.trim())).toEqual([]);
  });
});

describe('counts in the copy, move and delete texts', () => {
  const translator = async (lng: keyof typeof catalogues) => {
    const i18n = createInstance();
    await i18n.init({ resources: { [lng]: { translation: catalogues[lng] } }, lng, interpolation: { escapeValue: false } });
    return i18n.t.bind(i18n);
  };
  const singular = { en_us: 'Copy 1 item to…', es_mx: 'Copiar 1 elemento a…', nl: '1 item kopiëren naar…', pt_br: 'Copiar 1 item para…' } as const;
  const plural = { en_us: 'Move 3 items to…', es_mx: 'Mover 3 elementos a…', nl: '3 items verplaatsen naar…', pt_br: 'Mover 3 itens para…' } as const;

  it.each(Object.keys(catalogues) as (keyof typeof catalogues)[])('%s says one item and several items', async (lng) => {
    const t = await translator(lng);
    expect(t('files.moveCopy.copyTitle', { count: 1 })).toBe(singular[lng]);
    expect(t('files.moveCopy.moveTitle', { count: 3 })).toBe(plural[lng]);
    expect(t('files.trash.deleteBody', { count: 1 })).not.toBe(t('files.trash.deleteBody', { count: 2 }).replace('2', '1'));
    // the notice after a move to the trash, with its Undo
    expect(t('files.trash.moved', { count: 1 })).not.toBe(t('files.trash.moved', { count: 2 }).replace('2', '1'));
    expect(t('files.trash.moved', { count: 2 })).toContain('2');
    expect(t('files.trash.undo')).not.toBe('files.trash.undo');
  });

  it.each(Object.keys(catalogues) as (keyof typeof catalogues)[])('%s counts failed items by the total, in singular and plural', async (lng) => {
    const t = await translator(lng);
    const one = translateError(t, lng, { code: 'COPY_FAILED', message: '', data: { failed: 1, total: 1 } } as never);
    const many = translateError(t, lng, { code: 'COPY_FAILED', message: '', data: { failed: 1, total: 4 } } as never);
    expect(one).toContain('1');
    expect(many).toContain('4');
    expect(one).not.toBe(many.replace('4', '1'));
  });
});
