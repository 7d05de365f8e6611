/** Bytes read from each of the start, middle and end of a file. */
const SAMPLE = 64 * 1024;

const hex = (buffer: ArrayBuffer) => [...new Uint8Array(buffer)].map((b) => b.toString(16).padStart(2, '0')).join('');

/**
 * What an interrupted upload knows its file by when the user picks it again: SHA-256 over the size
 * and samples of the start, middle and end of the bytes. The name and modification time are left
 * out on purpose: a file copied or renamed since is still the same bytes, and a file of the same
 * name edited since is not. Reading three small slices keeps it quick for files of any size.
 */
export const fingerprintOf = async (file: Blob): Promise<string> => {
  const size = file.size;
  const middle = Math.max(0, Math.floor(size / 2) - SAMPLE / 2);
  const slices = [file.slice(0, SAMPLE), file.slice(middle, middle + SAMPLE), file.slice(Math.max(0, size - SAMPLE))];
  const parts = await Promise.all(slices.map((s) => s.arrayBuffer()));
  const header = new TextEncoder().encode(`${size}:`);
  const joined = new Uint8Array(header.length + parts.reduce((n, p) => n + p.byteLength, 0));
  joined.set(header, 0);
  let at = header.length;
  for (const part of parts) {
    joined.set(new Uint8Array(part), at);
    at += part.byteLength;
  }
  return hex(await crypto.subtle.digest('SHA-256', joined));
};
