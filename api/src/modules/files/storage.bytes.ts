import type { AppContext } from '../../context';
import type { FileContent, Uploads } from './contracts';

/** What the storage routes need of the byte pipeline (see contracts.ts). */
export interface StorageBytes {
  readonly uploads: Uploads;
  readonly content: FileContent;
}

/**
 * The byte pipeline of an app, as the files module builds it for that app's context; `app.ts`
 * passes it to the modules that read, claim or destroy file content.
 */
export type StorageBytesOf = (ctx: AppContext) => StorageBytes;
