import { DomainError, StorageErrors } from '@axel/domain';
import type { AppContext } from '../../context';
import type { FileContent, Uploads } from './contracts';

/** What the storage routes need of the byte pipeline (see contracts.ts). */
export interface StorageBytes {
  readonly uploads: Uploads;
  readonly content: FileContent;
}

/*
 * Where the storage routes find the byte pipeline of their app. The files module binds the real
 * pipeline when it registers its routes; a test of the storage routes alone may bind another
 * implementation of the same contracts to its app.
 */
const bound = new WeakMap<AppContext, StorageBytes>();

export const bindStorageBytes = (ctx: AppContext, bytes: StorageBytes): void => {
  bound.set(ctx, bytes);
};

export const storageBytes = (ctx: AppContext): StorageBytes => {
  const bytes = bound.get(ctx);
  if (!bytes) throw new DomainError(StorageErrors.fileNotAccessible);
  return bytes;
};
