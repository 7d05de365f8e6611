import { Upload } from 'tus-js-client';
import { ApiError } from '../../api/errors';
import { filesApi, type Item } from '../files/files.api';
import { TUS_ENDPOINT, tusError, uploadIdOf } from '../files/uploader';

const TUS_HEADERS = { 'X-Requested-With': 'XMLHttpRequest' };
const CHUNK_SIZE = 8 * 1024 * 1024;

/** A PDF from the device, uploaded to the root of the user's storage (a taken name is renamed): the package then takes it from there. */
export const uploadToStorage = async (userId: string, storageId: string, file: File, onProgress?: (share: number) => void): Promise<Item> => {
  const url = await new Promise<string>((resolve, reject) => {
    const upload = new Upload(file, {
      endpoint: TUS_ENDPOINT,
      metadata: { storageId, filename: file.name, filetype: file.type || 'application/pdf' },
      headers: TUS_HEADERS,
      chunkSize: CHUNK_SIZE,
      retryDelays: [0, 1000, 3000],
      storeFingerprintForResuming: false,
      onProgress: (sent, total) => onProgress?.(total ? sent / total : 0),
      onSuccess: () => resolve(upload.url ?? ''),
      onError: (error) => reject(tusError(error)),
    });
    upload.start();
  });
  const body = { uploadId: uploadIdOf(url), name: file.name };
  try {
    return await filesApi.createFile(userId, storageId, null, body);
  } catch (error) {
    if (error instanceof ApiError && error.status === 409) return filesApi.createFile(userId, storageId, null, { ...body, rename: true });
    throw error;
  }
};
