import { createHash, randomUUID } from 'node:crypto';
import { CLIO_FILING_MAX_BYTES, DomainError, IntegrationErrors, type Certificate } from '@axel/domain';
import type { CommandContext } from '@axel/platform';
import type { AppContext } from '../../../context';
import { liveItem, ownStorage } from '../../files/storage.service';
import type { FileContent } from '../../files/contracts';
import { clioAccessToken, runIntegrationCommand, type IntegrationPorts } from '../integrations.service';
import { ClioAnswerError } from './clio.port';

/** A Secure Fetch link's certificate of authenticity and its PDF, as the link's owner gets them. */
export type CertificateOf = (ctx: AppContext, userId: string, fetchId: string) => Promise<{ certificate: Certificate; pdf: Buffer }>;

const clioFailure = (error: unknown) => {
  if (error instanceof ClioAnswerError && error.status === 404) return new DomainError(IntegrationErrors.matterNotFound);
  if (error instanceof DomainError) return error;
  return new DomainError(IntegrationErrors.providerFailed, { app: 'clio' });
};

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

const readAll = async (stream: AsyncIterable<Buffer>, max: number): Promise<Buffer> => {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const part of stream) {
    size += part.length;
    if (size > max) throw new DomainError(IntegrationErrors.notFileable, { max });
    parts.push(part);
  }
  return Buffer.concat(parts);
};

/** A stored file filed as a new document of a Clio matter; its SHA-256 recorded with the filing. */
export const fileStoredDocument = async (
  ctx: AppContext,
  ports: IntegrationPorts,
  content: FileContent,
  input: { userId: string; matterId: string; storageId: string; itemId: string },
  actor: CommandContext,
) => {
  await ownStorage(ctx, input.userId, input.storageId, actor);
  const item = await liveItem(ctx, input.storageId, input.itemId, 'file');
  // the server holds only ciphertext of an end-to-end encrypted file: nothing Clio could open
  if (item.e2ee_enabled || !item.manifest || Number(item.size) > CLIO_FILING_MAX_BYTES)
    throw new DomainError(IntegrationErrors.notFileable, { max: CLIO_FILING_MAX_BYTES });
  const { accessToken, region, clio } = await clioAccessToken(ctx, ports, input.userId, actor);
  const bytes = await readAll(content.read(item.manifest, undefined, { itemId: item.id }), CLIO_FILING_MAX_BYTES);
  const digest = sha256(bytes);
  if (digest !== item.manifest.sha256) throw new Error(`file ${item.id} read back with another SHA-256 than it was stored with`);
  let documentId: string;
  try {
    ({ documentId } = await clio.fileDocument(region, accessToken, {
      matterId: input.matterId,
      name: item.name,
      bytes,
      contentType: item.mime ?? 'application/octet-stream',
    }));
  } catch (error) {
    throw clioFailure(error);
  }
  const filingId = randomUUID();
  await runIntegrationCommand(
    ctx,
    input.userId,
    {
      type: 'RecordClioFiling',
      data: {
        filingId,
        matterId: input.matterId,
        documentId,
        name: item.name,
        kind: 'file',
        size: bytes.length,
        sha256: digest,
        sourceId: item.id,
        certificateSha256: null,
        txId: null,
      },
    },
    actor,
  );
  return { filingId, documentId, matterId: input.matterId, name: item.name, sha256: digest, size: bytes.length };
};

/** The hashes a certificate certifies, as the note on the matter reads them. */
export const certificateNote = (certificate: Certificate): string =>
  [
    `Certificate of authenticity ${certificate.certificateId ?? certificate.fetchId}`,
    `Issued: ${certificate.issuedAt}`,
    `Canonical SHA-256: ${certificate.canonicalSha256}`,
    `AXEL transaction: ${certificate.txId}`,
    ...certificate.files.flatMap((f) => [
      `File: ${f.name} (${f.size} bytes)`,
      ...(f.md5 ? [`  MD5: ${f.md5}`] : []),
      ...(f.sha1 ? [`  SHA-1: ${f.sha1}`] : []),
      ...(f.sha3_512 ? [`  SHA3-512: ${f.sha3_512}`] : []),
    ]),
  ].join('\n');

/**
 * A Secure Fetch certificate filed to a matter: its PDF as a document, and a note holding the hashes
 * it certifies and the transaction that timestamps it, so the matter holds the chain of custody.
 */
export const fileCertificate = async (
  ctx: AppContext,
  ports: IntegrationPorts,
  certificateOf: CertificateOf,
  input: { userId: string; matterId: string; fetchId: string },
  actor: CommandContext,
) => {
  const { certificate, pdf } = await certificateOf(ctx, input.userId, input.fetchId);
  const { accessToken, region, clio } = await clioAccessToken(ctx, ports, input.userId, actor);
  const name = `certificate-${certificate.fetchId}.pdf`;
  let documentId: string;
  try {
    ({ documentId } = await clio.fileDocument(region, accessToken, { matterId: input.matterId, name, bytes: pdf, contentType: 'application/pdf' }));
    await clio.addNote(region, accessToken, { matterId: input.matterId, subject: `Chain of custody: ${name}`, detail: certificateNote(certificate) });
  } catch (error) {
    throw clioFailure(error);
  }
  const filingId = randomUUID();
  const digest = sha256(pdf);
  await runIntegrationCommand(
    ctx,
    input.userId,
    {
      type: 'RecordClioFiling',
      data: {
        filingId,
        matterId: input.matterId,
        documentId,
        name,
        kind: 'certificate',
        size: pdf.length,
        sha256: digest,
        sourceId: certificate.fetchId,
        certificateSha256: certificate.canonicalSha256,
        txId: certificate.txId,
      },
    },
    actor,
  );
  return { filingId, documentId, matterId: input.matterId, name, sha256: digest, certificateSha256: certificate.canonicalSha256, txId: certificate.txId };
};
