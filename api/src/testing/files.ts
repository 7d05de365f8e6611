import PDFKit from 'pdfkit';
import { expect } from 'vitest';
import type { HttpClient } from './harness';

const TUS = { 'tus-resumable': '1.0.0' };

/** Uploads `bytes` through tus and makes it a file named `name` at the storage's root; answers the file's id. */
export const storeFile = async (http: HttpClient, userId: string, storageId: string, name: string, bytes: Buffer): Promise<string> => {
  const created = await http.request('POST', '/api/uploads/', undefined, {
    ...TUS,
    'upload-length': String(bytes.length),
    'upload-metadata': `storageId ${Buffer.from(storageId).toString('base64')}`,
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const location = created.headers.get('location')!;
  const sent = await http.request('PATCH', location, new Uint8Array(bytes), {
    ...TUS,
    'upload-offset': '0',
    'content-type': 'application/offset+octet-stream',
  });
  expect(sent.status).toBe(204);
  const made = await http.post(`/api/users/${userId}/storages/${storageId}/items/`, { label: 'file', name, uploadId: location.split('/').at(-1)! });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  return made.body.id as string;
};

/** A PDF of `pages` pages, each saying which page it is. */
export const makePdf = (pages: number) =>
  new Promise<Buffer>((resolve) => {
    const doc = new PDFKit({ autoFirstPage: false });
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    for (let i = 1; i <= pages; i++) doc.addPage().text(`Lease agreement, page ${i}`);
    doc.end();
  });
