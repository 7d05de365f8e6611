import { API_BASE } from '../../api/client';

/** A download URL the API answered (absolute, rooted, or relative to the API). */
export const downloadUrl = (url: string) => (url.startsWith('/') || url.startsWith('http') ? url : `${API_BASE}/${url}`);

/** The archive behind a download URL as a File, reading its body with the bytes received so far. */
export const fetchWithProgress = async (url: string, signal: AbortSignal, onProgress: (loaded: number, total: number | null) => void): Promise<File> => {
  const response = await fetch(url, { credentials: 'include', signal });
  if (!response.ok || !response.body) throw new Error(`The download answered ${response.status}`);
  const length = Number(response.headers.get('content-length'));
  const total = Number.isFinite(length) && length > 0 ? length : null;
  const disposition = response.headers.get('content-disposition') ?? '';
  const name = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition)?.[1];
  const chunks: Uint8Array[] = [];
  let loaded = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    loaded += value.byteLength;
    onProgress(loaded, total);
  }
  return new File(chunks as BlobPart[], name ? decodeURIComponent(name) : 'download.zip');
};

/** Hands one result to the browser's downloads; the object URL stays valid for a "save again" link. */
export const saveAsDownload = (name: string, data: Blob): string => {
  const url = URL.createObjectURL(data);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
  return url;
};
