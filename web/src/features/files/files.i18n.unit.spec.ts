import type { NameProblem } from '@axel/domain/storage/storage.names';
import { StorageErrors } from '@axel/domain/storage/storage.errors';
import { describe, expect, it } from 'vitest';
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
  empty: true, forbiddenCharacters: true, controlCharacters: true, emoji: true, tooLong: true, leadingDot: true,
  dotOnly: true, dotInFolderName: true, forbiddenName: true, appFile: true, profanity: true,
} satisfies Record<NameProblem, true>;
const STATUSES = { pending: true, progress: true, paused: true, saving: true, done: true, failed: true, cancelled: true, interrupted: true } satisfies Record<UploadStatus, true>;

describe('file browser texts', () => {
  const built = [
    ...Object.keys(NAME_PROBLEMS).map((p) => `files.nameProblems.${p}`),
    ...Object.keys(STATUSES).map((s) => `files.upload.status.${s}`),
    ...DETAIL_FIELDS.map((f) => `files.details.fields.${f}`),
    ...['archive', 'trash'].map((w) => `files.working.${w}`),
    ...Object.values(StorageErrors).map((e) => `errors.${e.code}`),
    'errors.INVALID_NAME',
    'errors.TASK_FAILED',
  ];

  it.each(Object.entries(catalogues))('%s has the keys the file screens build at run time', (_, catalogue) => {
    const flat = flatten(catalogue);
    expect(built.filter((key) => !flat[key]?.trim())).toEqual([]);
  });
});
