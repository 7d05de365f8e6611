import { describe, expect, it } from 'vitest';
import { alreadyIn } from './move-target';

describe('alreadyIn', () => {
  it('is true when every chosen item is in the destination folder, the root included', () => {
    expect(alreadyIn([{ parentId: 'f1' }, { parentId: 'f1' }], 'f1')).toBe(true);
    expect(alreadyIn([{ parentId: null }], null)).toBe(true);
  });

  it('is false when at least one item comes from elsewhere, or the folder is not known', () => {
    expect(alreadyIn([{ parentId: 'f1' }, { parentId: 'f2' }], 'f1')).toBe(false);
    expect(alreadyIn([{ parentId: 'f1' }], null)).toBe(false);
    expect(alreadyIn([{ parentId: null }], 'f1')).toBe(false);
    expect(alreadyIn([{}], null)).toBe(false);
    expect(alreadyIn([], null)).toBe(false);
  });
});
