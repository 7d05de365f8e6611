import type { PinKind } from '@axel/domain/esign/esign.events';
import type { PackageStatus } from '@axel/domain/esign/esign.state';
import { API_BASE, api } from '../../api/client';

export type { PackageStatus, PinKind };

export interface EsignPackage {
  id: string;
  name: string;
  message: string | null;
  status: PackageStatus;
  createdAt: string | null;
  modifiedAt: string | null;
  sentAt: string | null;
  completedAt: string | null;
  documentSha256: string | null;
  entriesCount: number;
  signersCount: number;
  finishedCount: number;
}

export interface EsignEntry {
  id: string;
  fileId: string | null;
  name: string;
  size: number;
  sha256: string;
  pageCount: number;
}

export interface EsignSigner {
  id: string;
  linkId: string;
  name: string;
  email: string;
  color: number;
  order: number | null;
  signedAt: string | null;
  finishedAt: string | null;
}

/** A field on a page: position and size are fractions of the page, from its top-left corner. */
export interface EsignPin {
  id: string;
  entryId: string;
  signerId: string;
  kind: PinKind;
  page: number;
  x: number;
  y: number;
  width: number;
  height: number;
  filled: boolean;
}

export interface EsignPackageDetail extends EsignPackage {
  entries: EsignEntry[];
  links: EsignSigner[];
  pins: EsignPin[];
}

export type NewPin = Omit<EsignPin, 'id' | 'filled'>;

/** The spec's page size for lists (section 9). */
export const ESIGN_PAGE_SIZE = 500;

const enc = encodeURIComponent;
const packages = (userId: string) => `/users/${enc(userId)}/esign/packages`;
const one = (userId: string, packageId: string) => `${packages(userId)}/${enc(packageId)}`;

export const esignApi = {
  list: (userId: string, status: PackageStatus, page = 1) =>
    api.get<{ data: EsignPackage[]; totalCount: number }>(`${packages(userId)}/`, { status, page, perPage: ESIGN_PAGE_SIZE }),
  get: (userId: string, packageId: string) => api.get<EsignPackageDetail>(one(userId, packageId)),
  create: (userId: string, body: { name: string; message: string | null }) => api.post<EsignPackage>(`${packages(userId)}/`, body),
  remove: (userId: string, packageId: string) => api.delete<null>(one(userId, packageId)),
  archive: (userId: string, packageId: string) => api.post<EsignPackage>(`${one(userId, packageId)}/archive/`),
  unarchive: (userId: string, packageId: string) => api.post<EsignPackage>(`${one(userId, packageId)}/unarchive/`),
  addEntry: (userId: string, packageId: string, fileId: string, storageId?: string) =>
    api.post<EsignEntry>(`${one(userId, packageId)}/entries/`, storageId ? { fileId, storageId } : { fileId }),
  removeEntry: (userId: string, packageId: string, entryId: string) => api.delete<null>(`${one(userId, packageId)}/entries/${enc(entryId)}`),
  addSigner: (userId: string, packageId: string, body: { name: string; email: string; color: number; order: number | null }) =>
    api.post<EsignSigner>(`${one(userId, packageId)}/links/`, body),
  removeSigner: (userId: string, packageId: string, signerId: string) => api.delete<null>(`${one(userId, packageId)}/links/${enc(signerId)}`),
  placePin: (userId: string, packageId: string, pin: NewPin) => api.post<EsignPin>(`${one(userId, packageId)}/pins/`, pin),
  removePin: (userId: string, packageId: string, pinId: string) => api.delete<null>(`${one(userId, packageId)}/pins/${enc(pinId)}`),
  send: (userId: string, packageId: string, password?: string) =>
    api.post<EsignPackage & { password?: string }>(`${one(userId, packageId)}/send/`, password ? { password } : {}),
};

/** A document's PDF as it was added (pdf.js reads it with the session cookie). */
export const entryContentUrl = (userId: string, packageId: string, entryId: string) => `${API_BASE}${one(userId, packageId)}/entries/${enc(entryId)}/content`;

/** The completed, sealed PDF, as a download. */
export const sealedDocumentUrl = (userId: string, packageId: string) => `${API_BASE}${one(userId, packageId)}/document`;
