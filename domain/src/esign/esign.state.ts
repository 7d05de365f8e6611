import type { EsignEvent, PinKind } from './esign.events';

export const PACKAGE_STATUSES = ['draft', 'awaiting_signatures', 'completed', 'archived'] as const;
export type PackageStatus = (typeof PACKAGE_STATUSES)[number];
/** The statuses a package is archived from, and returns to when unarchived. */
export type ActiveStatus = Exclude<PackageStatus, 'archived'>;

export interface EsignEntry {
  readonly id: string;
  readonly fileId: string | null;
  readonly name: string;
  readonly size: number;
  readonly sha256: string;
  readonly pageCount: number;
}

export interface EsignSigner {
  readonly id: string;
  readonly linkId: string;
  readonly name: string;
  readonly email: string;
  readonly color: number;
  readonly order: number | null;
  readonly signature: { readonly type: 'typed' | 'drawn'; readonly value: string } | null;
  readonly signedAt: string | null;
  readonly signedFrom: { readonly ip: string | null; readonly userAgent: string | null } | null;
  readonly finishedAt: string | null;
  readonly finishedFrom: { readonly ip: string | null; readonly userAgent: string | null } | null;
}

export interface EsignPin {
  readonly id: string;
  readonly entryId: string;
  readonly signerId: string;
  readonly kind: PinKind;
  readonly page: number;
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
  readonly filled: boolean;
}

export interface EsignPackageState {
  readonly exists: boolean;
  readonly deleted: boolean;
  readonly forgotten: boolean;
  readonly packageId: string;
  readonly ownerId: string;
  readonly name: string;
  readonly message: string | null;
  readonly status: PackageStatus;
  readonly archivedFrom: ActiveStatus | null;
  readonly entries: Readonly<Record<string, EsignEntry>>;
  readonly signers: Readonly<Record<string, EsignSigner>>;
  readonly pins: Readonly<Record<string, EsignPin>>;
  readonly passwordHash: string | null;
  readonly sentAt: string | null;
  readonly completedAt: string | null;
  readonly documentSha256: string | null;
  readonly originalSha256: Readonly<Record<string, string>>;
}

export const initialEsignPackageState = (): EsignPackageState => ({
  exists: false,
  deleted: false,
  forgotten: false,
  packageId: '',
  ownerId: '',
  name: '',
  message: null,
  status: 'draft',
  archivedFrom: null,
  entries: {},
  signers: {},
  pins: {},
  passwordHash: null,
  sentAt: null,
  completedAt: null,
  documentSha256: null,
  originalSha256: {},
});

const without = <T>(record: Readonly<Record<string, T>>, key: string): Record<string, T> => {
  const copy = { ...record };
  delete copy[key];
  return copy;
};

const withoutWhere = <T>(record: Readonly<Record<string, T>>, drop: (value: T) => boolean): Record<string, T> =>
  Object.fromEntries(Object.entries(record).filter(([, v]) => !drop(v)));

export const evolveEsignPackage = (state: EsignPackageState, event: EsignEvent): EsignPackageState => {
  switch (event.type) {
    case 'EsignPackageCreated':
      return { ...state, exists: true, packageId: event.data.packageId, ownerId: event.data.ownerId, name: event.data.name, message: event.data.message };
    case 'EsignEntryAdded': {
      const { entryId, fileId, name, size, sha256, pageCount } = event.data;
      return { ...state, entries: { ...state.entries, [entryId]: { id: entryId, fileId, name, size, sha256, pageCount } } };
    }
    case 'EsignEntryRemoved':
      return {
        ...state,
        entries: without(state.entries, event.data.entryId),
        pins: withoutWhere(state.pins, (p) => p.entryId === event.data.entryId),
      };
    case 'EsignSignerAdded': {
      const { signerId, linkId, name, email, color, order } = event.data;
      const signer: EsignSigner = {
        id: signerId,
        linkId,
        name,
        email,
        color,
        order,
        signature: null,
        signedAt: null,
        signedFrom: null,
        finishedAt: null,
        finishedFrom: null,
      };
      return { ...state, signers: { ...state.signers, [signerId]: signer } };
    }
    case 'EsignSignerRemoved':
      return {
        ...state,
        signers: without(state.signers, event.data.signerId),
        pins: withoutWhere(state.pins, (p) => p.signerId === event.data.signerId),
      };
    case 'EsignPinPlaced': {
      const { pinId, ...placement } = event.data;
      return { ...state, pins: { ...state.pins, [pinId]: { id: pinId, ...placement, filled: false } } };
    }
    case 'EsignPinRemoved':
      return { ...state, pins: without(state.pins, event.data.pinId) };
    case 'EsignPackageSent':
      return { ...state, status: 'awaiting_signatures', passwordHash: event.data.passwordHash, sentAt: event.data.sentAt };
    case 'EsignSignerSigned': {
      const signer = state.signers[event.data.signerId];
      if (!signer) return state;
      const filled = new Set(event.data.pinIds);
      const pins = Object.fromEntries(Object.entries(state.pins).map(([id, p]) => [id, filled.has(id) ? { ...p, filled: true } : p]));
      const signed: EsignSigner = {
        ...signer,
        signature: { type: event.data.signatureType, value: event.data.signatureValue },
        signedAt: event.data.signedAt,
        signedFrom: { ip: event.data.ip, userAgent: event.data.userAgent },
      };
      return { ...state, pins, signers: { ...state.signers, [signer.id]: signed } };
    }
    case 'EsignSignerFinished': {
      const signer = state.signers[event.data.signerId];
      if (!signer) return state;
      const finished: EsignSigner = { ...signer, finishedAt: event.data.finishedAt, finishedFrom: { ip: event.data.ip, userAgent: event.data.userAgent } };
      return { ...state, signers: { ...state.signers, [signer.id]: finished } };
    }
    case 'EsignPackageCompleted':
      return {
        ...state,
        status: 'completed',
        completedAt: event.data.completedAt,
        documentSha256: event.data.documentSha256,
        originalSha256: event.data.originalSha256,
      };
    case 'EsignPackageArchived':
      return state.status === 'archived' ? state : { ...state, archivedFrom: state.status, status: 'archived' };
    case 'EsignPackageUnarchived':
      return { ...state, status: state.archivedFrom ?? state.status, archivedFrom: null };
    case 'EsignPackageDeleted':
      return { ...state, deleted: true };
    case 'EsignPackageForgotten':
      return { ...state, deleted: true, forgotten: true };
    default:
      return state;
  }
};

/** The signers in signing order: those with an order first (lowest first), then the others as added. */
export const signersInOrder = (state: EsignPackageState): EsignSigner[] => {
  const all = Object.values(state.signers);
  return all
    .map((s, i) => ({ s, i }))
    .sort((a, b) => (a.s.order ?? Number.MAX_SAFE_INTEGER) - (b.s.order ?? Number.MAX_SAFE_INTEGER) || a.i - b.i)
    .map(({ s }) => s);
};

/**
 * Whose turn it is: without an order everyone signs at once; with one, a signer waits until every
 * signer of a lower order has finished (signers without an order sign at any time).
 */
export const mayStartSigning = (state: EsignPackageState, signerId: string): boolean => {
  const signer = state.signers[signerId];
  if (!signer) return false;
  if (signer.order === null) return true;
  return Object.values(state.signers).every((s) => s.order === null || s.order >= signer.order! || s.finishedAt !== null);
};

/** The signers whose turn has come and who have not finished: those the next mails go to. */
export const signersDue = (state: EsignPackageState): EsignSigner[] =>
  signersInOrder(state).filter((s) => s.finishedAt === null && mayStartSigning(state, s.id));

export const pinsOf = (state: EsignPackageState, signerId: string): EsignPin[] => Object.values(state.pins).filter((p) => p.signerId === signerId);

/** Whether this signer's finish would complete the package (every other signer has finished). */
export const isLastToFinish = (state: EsignPackageState, signerId: string): boolean =>
  Object.values(state.signers).every((s) => s.id === signerId || s.finishedAt !== null);
