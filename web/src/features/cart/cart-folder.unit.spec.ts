import { nameProblem } from '@axel/domain/storage/storage.names';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/errors';
import { cartFolderStamp, createCartFolder, nthFolderName, warnBeforeUnload } from './cart-folder';

describe("the cart's folder", () => {
  it('is stamped with the local day and minute, without the characters names refuse', () => {
    const stamp = cartFolderStamp(new Date(2026, 2, 1, 9, 5, 59));
    expect(stamp).toBe('2026-03-01 09h05');
    // the folder names of every locale are names a folder may have
    for (const prefix of ['Shared', 'Compartido', 'Compartilhado', 'Gedeeld']) expect(nameProblem(`${prefix} ${stamp} (2)`, 'folder')).toBeNull();
    expect(nameProblem(`Shared ${cartFolderStamp(new Date(2026, 11, 31, 23, 59))}`, 'folder')).toBeNull();
  });

  it('takes the first free name: a taken one moves to "(2)", "(3)"…', async () => {
    const taken = new Set(['Shared 2026-03-01 09h05', 'Shared 2026-03-01 09h05 (2)']);
    const tried: string[] = [];
    const folder = await createCartFolder('Shared 2026-03-01 09h05', async (name) => {
      tried.push(name);
      if (taken.has(name)) throw new ApiError('NAME_EXISTS', 'An item with this name already exists', null, 409);
      return { id: `id-${tried.length}` };
    });
    expect(folder).toEqual({ id: 'id-3', name: 'Shared 2026-03-01 09h05 (3)' });
    expect(tried).toEqual(['Shared 2026-03-01 09h05', 'Shared 2026-03-01 09h05 (2)', 'Shared 2026-03-01 09h05 (3)']);
    expect(nthFolderName('X', 0)).toBe('X');
  });

  it('any other refusal is not retried, and the attempts end', async () => {
    let calls = 0;
    await expect(
      createCartFolder('Shared', async () => {
        calls++;
        throw new ApiError('STORAGE_QUOTA_EXCEEDED', 'No space', null, 403);
      }),
    ).rejects.toMatchObject({ code: 'STORAGE_QUOTA_EXCEEDED' });
    expect(calls).toBe(1);
    calls = 0;
    await expect(
      createCartFolder(
        'Shared',
        async () => {
          calls++;
          throw new ApiError('NAME_EXISTS', 'taken', null, 409);
        },
        3,
      ),
    ).rejects.toMatchObject({ code: 'NAME_EXISTS' });
    expect(calls).toBe(3);
  });

  it('leaving while uploads run asks first', () => {
    let prevented = false;
    const event: { preventDefault: () => void; returnValue?: unknown } = { preventDefault: () => (prevented = true) };
    warnBeforeUnload(event);
    expect(prevented).toBe(true);
    expect(event.returnValue).toBe('');
  });
});
