/**
 * Entry labels (spec §3 Entry): `sfFolder` is the folder a Secure Fetch link's files arrived in,
 * `sfFile` a file received through the link. Here they are a folder and a file like any other
 * (open, preview, download, share, move).
 */
export type ItemLabel = 'file' | 'folder' | 'sfFile' | 'sfFolder';

/** A folder to open, list, move into or archive by name (a Secure Fetch folder too). */
export const isFolder = (item: { label: string }): boolean => item.label === 'folder' || item.label === 'sfFolder';

/** A file to preview, download or rename as a file (a file received through a Secure Fetch link too). */
export const isFile = (item: { label: string }): boolean => item.label === 'file' || item.label === 'sfFile';
