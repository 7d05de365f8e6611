import { describe, expect, it } from 'vitest';
import { archiveName, DOWNLOAD_MAX_BYTES, exceedsDownloadLimit, formatBytes, locationLabel, previewKind } from './format';

describe('file helpers', () => {
  it('formats sizes in decimal units, as quotas count them', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(999)).toBe('999 B');
    expect(formatBytes(1500)).toBe('1.5 KB');
    expect(formatBytes(10_000_000_000)).toBe('10 GB');
    expect(formatBytes(3_158_000)).toBe('3.2 MB');
    expect(formatBytes(1500, 'nl-NL')).toBe('1,5 KB');
  });

  it('knows what it can preview', () => {
    expect(previewKind({ name: 'a.PNG', label: 'file' })).toBe('image');
    expect(previewKind({ name: 'notes', label: 'file', mime: 'text/plain' })).toBe('text');
    expect(previewKind({ name: 'x.bin', label: 'file', mime: 'application/octet-stream' })).toBeNull();
    expect(previewKind({ name: 'Photos', label: 'folder' })).toBeNull();
    // a file received through a Secure Fetch link previews as any file; its folder does not
    expect(previewKind({ name: 'scan.pdf', label: 'sfFile', mime: 'application/pdf' })).toBe('pdf');
    expect(previewKind({ name: 'photo.jpg', label: 'sfFile' })).toBe('image');
    expect(previewKind({ name: 'Secure Fetch 2030-05-06 abcdef', label: 'sfFolder' })).toBeNull();
  });

  it('refuses downloads over 10 GB in total', () => {
    expect(exceedsDownloadLimit([{ size: DOWNLOAD_MAX_BYTES }])).toBe(false);
    expect(exceedsDownloadLimit([{ size: DOWNLOAD_MAX_BYTES - 1 }, { size: 2 }])).toBe(true);
  });

  it('names archives', () => {
    const now = new Date('2030-05-06T10:00:00Z');
    expect(archiveName([{ name: 'Photos', label: 'folder' }], now)).toBe('Photos.zip');
    expect(archiveName([{ name: 'Secure Fetch 2030-05-06 abcdef', label: 'sfFolder' }], now)).toBe('Secure Fetch 2030-05-06 abcdef.zip');
    expect(
      archiveName(
        [
          { name: 'a', label: 'file' },
          { name: 'b', label: 'file' },
        ],
        now,
      ),
    ).toBe('files-2030-05-06.zip');
  });
});

describe('where a search result is', () => {
  it('names the storage, then each folder down to the result', () => {
    expect(locationLabel('/', 'My files')).toBe('My files');
    expect(locationLabel('/Projects', 'My files')).toBe('My files / Projects');
    expect(locationLabel('/Projects/Axel', 'Mis archivos')).toBe('Mis archivos / Projects / Axel');
    expect(locationLabel(undefined, 'My files')).toBe('My files');
  });
});
