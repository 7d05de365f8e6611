import { describe, expect, it } from 'vitest';
import { changed, draftOf, grantsBody, levelsFor, withLevel, without } from './permissions.draft';

const answer = {
  grants: [
    { userId: 'u1', level: 'view' as const },
    { groupId: 'g1', level: 'edit' as const },
  ],
};

describe('the permissions dialog draft', () => {
  it('keeps member and group grants apart and sends them back as the call takes them', () => {
    const draft = draftOf(answer);
    expect(draft.map((g) => g.key)).toEqual(['user:u1', 'group:g1']);
    expect(grantsBody(draft)).toEqual([
      { userId: 'u1', level: 'view' },
      { groupId: 'g1', level: 'edit' },
    ]);
    expect(changed(answer, draft)).toBe(false);
  });

  it('changes a level in place, adds a new principal at the end, and removes one', () => {
    let draft = withLevel(draftOf(answer), 'user:u1', 'download');
    expect(grantsBody(draft)).toEqual([
      { userId: 'u1', level: 'download' },
      { groupId: 'g1', level: 'edit' },
    ]);
    draft = withLevel(draft, 'group:g2', 'view');
    expect(grantsBody(draft).at(-1)).toEqual({ groupId: 'g2', level: 'view' });
    draft = without(draft, 'user:u1');
    expect(grantsBody(draft)).toEqual([
      { groupId: 'g1', level: 'edit' },
      { groupId: 'g2', level: 'view' },
    ]);
    expect(changed(answer, draft)).toBe(true);
    // a user id that looks like a group's stays a user's
    expect(grantsBody(withLevel([], 'user:group:x', 'view'))).toEqual([{ userId: 'group:x', level: 'view' }]);
  });

  it('offers only levels at or above what the principal inherits from a folder above', () => {
    const inherited = [
      { groupId: 'g1', level: 'download' as const, from: 'top' },
      { groupId: 'g1', level: 'view' as const, from: 'mid' },
      { userId: 'u1', level: 'none' as const, from: 'top' },
    ];
    expect(levelsFor(inherited, 'group:g1')).toEqual(['download', 'edit', 'full']);
    expect(levelsFor(inherited, 'user:u1')).toEqual(['none', 'view', 'download', 'edit', 'full']);
    expect(levelsFor(inherited, 'user:u2')).toEqual(['none', 'view', 'download', 'edit', 'full']);
  });
});
