import { formatSize } from '@axel/domain/shared/sizes';
import { DOWNLOAD_TOTAL_MAX_BYTES } from '@axel/domain/storage/storage.quota';
import { isFile, isFolder, type Item } from './files.api';

/** The spec's download limit: at most 10 GB at once (the server's own constant). */
export const DOWNLOAD_MAX_BYTES = DOWNLOAD_TOTAL_MAX_BYTES;

/** Sizes in decimal units (as plans and quotas count them: 10 GB is 10^10 bytes), at most one decimal, in the reader's number format. */
export const formatBytes = (bytes: number, localeTag = 'en-US'): string => formatSize(bytes, localeTag) ?? '';

export type PreviewKind = 'image' | 'text' | 'pdf' | 'audio' | 'video' | null;

const EXT: Record<string, PreviewKind> = {
  png: 'image',
  jpg: 'image',
  jpeg: 'image',
  gif: 'image',
  webp: 'image',
  bmp: 'image',
  svg: 'image',
  avif: 'image',
  txt: 'text',
  md: 'text',
  csv: 'text',
  json: 'text',
  log: 'text',
  xml: 'text',
  yml: 'text',
  yaml: 'text',
  ts: 'text',
  js: 'text',
  css: 'text',
  html: 'text',
  pdf: 'pdf',
  mp3: 'audio',
  wav: 'audio',
  ogg: 'audio',
  m4a: 'audio',
  flac: 'audio',
  mp4: 'video',
  webm: 'video',
  mov: 'video',
  m4v: 'video',
};

/** How a file can be previewed, from its type or else its extension; null when it cannot. */
export const previewKind = (item: Pick<Item, 'name' | 'label' | 'mime'>): PreviewKind => {
  if (!isFile(item)) return null;
  const mime = (item.mime ?? '').toLowerCase();
  if (mime.startsWith('image/')) return 'image';
  if (mime === 'application/pdf') return 'pdf';
  if (mime.startsWith('audio/')) return 'audio';
  if (mime.startsWith('video/')) return 'video';
  if (mime.startsWith('text/') || mime === 'application/json') return 'text';
  const dot = item.name.lastIndexOf('.');
  return dot > 0 ? (EXT[item.name.slice(dot + 1).toLowerCase()] ?? null) : null;
};

export const totalSize = (items: readonly Pick<Item, 'size'>[]) => items.reduce((n, i) => n + (Number.isFinite(i.size) ? i.size : 0), 0);

export const exceedsDownloadLimit = (items: readonly Pick<Item, 'size'>[]) => totalSize(items) > DOWNLOAD_MAX_BYTES;

/** An archive's name: the one folder chosen, else a dated name. */
export const archiveName = (items: readonly Pick<Item, 'name' | 'label'>[], now: Date) =>
  items.length === 1 && isFolder(items[0]!) ? `${items[0]!.name}.zip` : `files-${now.toISOString().slice(0, 10)}.zip`;

/**
 * Where a search result is, in words: its storage and the folders down to it ("My files / Projects /
 * Axel"), from the path its search answer gives (`/Projects/Axel`, `/` at the root).
 */
export const locationLabel = (location: string | null | undefined, rootName: string): string =>
  [rootName, ...(location ?? '').split('/').filter(Boolean)].join(' / ');
