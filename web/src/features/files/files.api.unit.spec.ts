import { describe, expect, it } from 'vitest';
import { apiRelative, containerPath, sourceUrl } from './files.api';

describe('file call paths', () => {
  it('reads a state URL the server answers, absolute or not, as a path of the API client', () => {
    expect(apiRelative('/api/users/u1/storage-tasks/t1/')).toBe('/users/u1/storage-tasks/t1/');
    expect(apiRelative('http://127.0.0.1:8080/api/users/u1/storage-tasks/t1/?a=1')).toBe('/users/u1/storage-tasks/t1/?a=1');
    expect(apiRelative('/users/u1/storage-tasks/t1/')).toBe('/users/u1/storage-tasks/t1/');
  });

  it('addresses a storage root or a folder', () => {
    expect(containerPath('u 1', 's1', null)).toBe('/users/u%201/storages/s1');
    expect(containerPath('u1', 's1', 'f/1')).toBe('/users/u1/storages/s1/folders/f%2F1');
  });

  it('downloads as an attachment under its name, previews inline by its bare media type', () => {
    const item = { id: 'i1', fileId: 'f1', storageId: 's1', name: 'a b.txt', mime: 'text/plain; charset=utf-8' };
    expect(sourceUrl('u1', item, { download: true })).toBe('/api/users/u1/storages/s1/files/f1/sources/?fileName=a+b.txt');
    expect(sourceUrl('u1', item)).toBe('/api/users/u1/storages/s1/files/f1/sources/?contentType=text%2Fplain');
    expect(sourceUrl('u1', { ...item, mime: null })).toBe('/api/users/u1/storages/s1/files/f1/sources/');
  });
});
