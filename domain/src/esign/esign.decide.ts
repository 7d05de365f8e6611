import { assertNever, type Decider } from '../shared/decider';
import { CommonErrors, DomainError } from '../shared/errors';
import type { EsignCommand, PinPlacement, SignatureInput } from './esign.commands';
import { EsignErrors } from './esign.errors';
import type { EsignEvent } from './esign.events';
import { evolveEsignPackage, initialEsignPackageState, isLastToFinish, mayStartSigning, pinsOf, type EsignPackageState } from './esign.state';

export const SIGNER_COLORS = { min: 1, max: 10 } as const;
export const PACKAGE_NAME_MAX = 255;
export const PACKAGE_MESSAGE_MAX = 10_000;
export const SIGNER_NAME_MAX = 255;
export const MAX_ENTRIES = 20;
export const MAX_SIGNERS = 50;
export const MAX_PINS = 500;
/** A drawn signature is a PNG data URL of at most this many characters (about 750 KB of image). */
export const DRAWN_SIGNATURE_MAX = 1_000_000;
export const TYPED_SIGNATURE_MAX = 100;

/** Letters and digits of any script, spaces and a few punctuation marks; no other special characters. */
const PACKAGE_NAME = /^[\p{L}\p{M}\p{N} _.,()'&-]+$/u;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;
const PNG_DATA_URL = /^data:image\/png;base64,[A-Za-z0-9+/]+={0,2}$/;

export const checkedPackageName = (raw: string): string => {
  const name = raw.trim();
  if (name.length === 0 || name.length > PACKAGE_NAME_MAX || !PACKAGE_NAME.test(name)) throw new DomainError(EsignErrors.invalidName, { field: 'name' });
  return name;
};

export const checkedSignature = (signature: SignatureInput): { type: 'typed' | 'drawn'; value: string } => {
  if (signature.type === 'typed') {
    const text = signature.text.trim();
    if (text.length === 0 || text.length > TYPED_SIGNATURE_MAX) throw new DomainError(EsignErrors.invalidSignature, { field: 'text' });
    return { type: 'typed', value: text };
  }
  if (signature.image.length > DRAWN_SIGNATURE_MAX || !PNG_DATA_URL.test(signature.image)) {
    throw new DomainError(EsignErrors.invalidSignature, { field: 'image' });
  }
  return { type: 'drawn', value: signature.image };
};

const fraction = (n: number) => Number.isFinite(n) && n >= 0 && n <= 1;

const checkPlacement = (state: EsignPackageState, p: PinPlacement) => {
  const entry = state.entries[p.entryId];
  if (!entry) throw new DomainError(EsignErrors.entryNotFound);
  if (!state.signers[p.signerId]) throw new DomainError(EsignErrors.signerNotFound);
  const inside =
    Number.isInteger(p.page) &&
    p.page >= 1 &&
    p.page <= entry.pageCount &&
    [p.x, p.y, p.width, p.height].every(fraction) &&
    p.width > 0 &&
    p.height > 0 &&
    p.x + p.width <= 1 + 1e-9 &&
    p.y + p.height <= 1 + 1e-9;
  if (!inside) throw new DomainError(EsignErrors.invalidPin, { pageCount: entry.pageCount });
};

const existing = (state: EsignPackageState): EsignPackageState => {
  if (!state.exists || state.deleted) throw new DomainError(EsignErrors.packageNotFound);
  return state;
};

const draft = (state: EsignPackageState): EsignPackageState => {
  existing(state);
  if (state.status !== 'draft') throw new DomainError(EsignErrors.notDraft, { status: state.status });
  return state;
};

/** A package a signer may act on: out for signature, neither completed nor archived. */
const awaiting = (state: EsignPackageState): EsignPackageState => {
  existing(state);
  if (state.status === 'completed') throw new DomainError(EsignErrors.completed);
  if (state.status === 'archived') throw new DomainError(EsignErrors.archived);
  if (state.status !== 'awaiting_signatures') throw new DomainError(EsignErrors.notAwaiting);
  return state;
};

const signerOf = (state: EsignPackageState, signerId: string) => {
  const signer = state.signers[signerId];
  if (!signer) throw new DomainError(EsignErrors.signerNotFound);
  return signer;
};

const decide = (command: EsignCommand, state: EsignPackageState): EsignEvent[] => {
  const at = command.metadata.now.toISOString();
  switch (command.type) {
    case 'CreatePackage': {
      const name = checkedPackageName(command.data.name);
      const message = command.data.message?.trim() || null;
      if (message && message.length > PACKAGE_MESSAGE_MAX) throw new DomainError(CommonErrors.validation, { field: 'message' });
      if (state.exists) {
        if (state.ownerId === command.data.ownerId && state.name === name) return [];
        throw new DomainError(EsignErrors.packageNotFound);
      }
      return [{ type: 'EsignPackageCreated', data: { packageId: command.data.packageId, ownerId: command.data.ownerId, name, message } }];
    }
    case 'AddEntry': {
      draft(state);
      const { entryId, fileId, name, mime, size, sha256, pageCount } = command.data;
      if (state.entries[entryId]) return [];
      if (mime !== 'application/pdf' || pageCount < 1) throw new DomainError(EsignErrors.pdfOnly);
      if (Object.keys(state.entries).length >= MAX_ENTRIES) throw new DomainError(EsignErrors.incomplete, { maxEntries: MAX_ENTRIES });
      return [{ type: 'EsignEntryAdded', data: { entryId, fileId, name, size, sha256, pageCount } }];
    }
    case 'RemoveEntry':
      draft(state);
      if (!state.entries[command.data.entryId]) throw new DomainError(EsignErrors.entryNotFound);
      return [{ type: 'EsignEntryRemoved', data: { entryId: command.data.entryId } }];
    case 'AddSigner': {
      draft(state);
      const { signerId, linkId, color, order } = command.data;
      const name = command.data.name.trim();
      const email = command.data.email.trim();
      if (!Number.isInteger(color) || color < SIGNER_COLORS.min || color > SIGNER_COLORS.max) throw new DomainError(EsignErrors.invalidColor);
      if (!EMAIL.test(email) || email.length > 254) throw new DomainError(EsignErrors.invalidEmail);
      if (name.length === 0 || name.length > SIGNER_NAME_MAX) throw new DomainError(CommonErrors.validation, { field: 'name' });
      if (order !== null && (!Number.isInteger(order) || order < 1)) throw new DomainError(CommonErrors.validation, { field: 'order' });
      const same = Object.values(state.signers).find((s) => s.email.toLowerCase() === email.toLowerCase());
      if (same) {
        if (same.id === signerId) return [];
        throw new DomainError(EsignErrors.signerEmailExists, { signerId: same.id });
      }
      if (state.signers[signerId]) throw new DomainError(EsignErrors.signerEmailExists);
      if (Object.keys(state.signers).length >= MAX_SIGNERS) throw new DomainError(EsignErrors.incomplete, { maxSigners: MAX_SIGNERS });
      return [{ type: 'EsignSignerAdded', data: { signerId, linkId, name, email, color, order } }];
    }
    case 'RemoveSigner':
      draft(state);
      signerOf(state, command.data.signerId);
      return [{ type: 'EsignSignerRemoved', data: { signerId: command.data.signerId } }];
    case 'PlacePin': {
      draft(state);
      const { pinId, ...placement } = command.data;
      checkPlacement(state, placement);
      if (state.pins[pinId]) throw new DomainError(EsignErrors.invalidPin, { pinId });
      if (Object.keys(state.pins).length >= MAX_PINS) throw new DomainError(EsignErrors.incomplete, { maxPins: MAX_PINS });
      return [{ type: 'EsignPinPlaced', data: { pinId, ...placement } }];
    }
    case 'RemovePin':
      draft(state);
      if (!state.pins[command.data.pinId]) throw new DomainError(EsignErrors.pinNotFound);
      return [{ type: 'EsignPinRemoved', data: { pinId: command.data.pinId } }];
    case 'SendPackage': {
      draft(state);
      const signers = Object.values(state.signers);
      const ready = Object.keys(state.entries).length > 0 && signers.length > 0 && signers.every((s) => pinsOf(state, s.id).length > 0);
      if (!ready) throw new DomainError(EsignErrors.incomplete);
      return [{ type: 'EsignPackageSent', data: { passwordHash: command.data.passwordHash, sentAt: at } }];
    }
    case 'Sign': {
      awaiting(state);
      const signer = signerOf(state, command.data.signerId);
      if (signer.finishedAt) throw new DomainError(EsignErrors.alreadySigned);
      if (!mayStartSigning(state, signer.id)) throw new DomainError(EsignErrors.notYourTurn);
      const signature = checkedSignature(command.data.signature);
      return [
        {
          type: 'EsignSignerSigned',
          data: {
            signerId: signer.id,
            signatureType: signature.type,
            signatureValue: signature.value,
            pinIds: pinsOf(state, signer.id).map((p) => p.id),
            signedAt: at,
            ip: command.data.ip,
            userAgent: command.data.userAgent,
          },
        },
      ];
    }
    case 'FinishSigning': {
      awaiting(state);
      const signer = signerOf(state, command.data.signerId);
      if (signer.finishedAt) throw new DomainError(EsignErrors.alreadySigned);
      if (!mayStartSigning(state, signer.id)) throw new DomainError(EsignErrors.notYourTurn);
      if (!signer.signedAt || pinsOf(state, signer.id).some((p) => !p.filled)) throw new DomainError(EsignErrors.notSigned);
      const finished: EsignEvent = {
        type: 'EsignSignerFinished',
        data: { signerId: signer.id, finishedAt: at, ip: command.data.ip, userAgent: command.data.userAgent },
      };
      if (!isLastToFinish(state, signer.id)) return [finished];
      const { seal } = command.data;
      if (!seal) throw new DomainError(EsignErrors.sealRequired);
      return [
        finished,
        { type: 'EsignPackageCompleted', data: { completedAt: at, documentSha256: seal.documentSha256, originalSha256: { ...seal.originalSha256 } } },
      ];
    }
    case 'ArchivePackage':
      existing(state);
      return state.status === 'archived' ? [] : [{ type: 'EsignPackageArchived', data: { at } }];
    case 'UnarchivePackage':
      existing(state);
      if (state.status !== 'archived') throw new DomainError(EsignErrors.notArchived);
      return [{ type: 'EsignPackageUnarchived', data: { at } }];
    case 'DeletePackage':
      existing(state);
      return [{ type: 'EsignPackageDeleted', data: { at } }];
    case 'ForgetPackage':
      return state.exists && !state.forgotten ? [{ type: 'EsignPackageForgotten', data: { at } }] : [];
    default:
      return assertNever(command);
  }
};

export const esignPackageDecider: Decider<EsignCommand, EsignEvent, EsignPackageState> = {
  initialState: initialEsignPackageState,
  decide,
  evolve: evolveEsignPackage,
};
