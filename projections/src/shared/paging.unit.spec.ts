import { describe, expect, it } from 'vitest';
import { conditions, likePattern, pageStatements, pageWindow } from './paging';

describe('likePattern', () => {
  it('matches the text anywhere', () => {
    expect(likePattern('report')).toBe('%report%');
  });

  it('takes the wildcards and the escape character of the text literally', () => {
    expect(likePattern('50%_off')).toBe('%50\\%\\_off%');
    expect(likePattern('a\\b')).toBe('%a\\\\b%');
  });
});

describe('pageWindow', () => {
  it('turns a page from 1 into limit and offset', () => {
    expect(pageWindow(1, 20)).toEqual({ limit: 20, offset: 0 });
    expect(pageWindow(3, 25)).toEqual({ limit: 25, offset: 50 });
  });
});

describe('conditions', () => {
  it('numbers each value after those already given', () => {
    const where = conditions('owner_id = $1', ['u1']);
    where.add((p) => `title ilike ${p}`, '%a%');
    where.add((from, to) => `expires_at between ${from} and ${to}`, 'x', 'y');
    expect(where.sql).toBe('owner_id = $1 and title ilike $2 and expires_at between $3 and $4');
    expect(where.params).toEqual(['u1', '%a%', 'x', 'y']);
  });
});

describe('pageStatements', () => {
  it('reads the page and counts all the rows under one filter', () => {
    const { rows, count } = pageStatements({
      select: 'record',
      from: 'shares',
      where: 'owner_id = $1 and kind = $2',
      params: ['u1', 'private'],
      orderBy: 'created_at desc, id desc',
      limit: 10,
      offset: 20,
    });
    expect(rows.text).toBe('select record from shares where owner_id = $1 and kind = $2 order by created_at desc, id desc limit $3 offset $4');
    expect(rows.values).toEqual(['u1', 'private', 10, 20]);
    expect(count.text).toBe('select count(*)::int as n from shares where owner_id = $1 and kind = $2');
    expect(count.values).toEqual(['u1', 'private']);
  });
});
