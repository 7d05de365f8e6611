import type { Command } from '../shared/decider';
import type { PinKind } from './esign.events';

export interface PinPlacement {
  readonly entryId: string;
  readonly signerId: string;
  readonly kind: PinKind;
  readonly page: number;
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

export type SignatureInput = { readonly type: 'typed'; readonly text: string } | { readonly type: 'drawn'; readonly image: string };

/** Where a signing came from, as the certificate page shows it. */
export interface SigningOrigin {
  readonly ip: string | null;
  readonly userAgent: string | null;
}

/** The sealed document, built before the last signer's finish is decided. */
export interface Seal {
  readonly documentSha256: string;
  readonly originalSha256: Readonly<Record<string, string>>;
}

export type EsignCommand =
  | Command<'CreatePackage', { packageId: string; ownerId: string; name: string; message: string | null }>
  | Command<'AddEntry', { entryId: string; fileId: string | null; name: string; mime: string; size: number; sha256: string; pageCount: number }>
  | Command<'RemoveEntry', { entryId: string }>
  | Command<'AddSigner', { signerId: string; linkId: string; name: string; email: string; color: number; order: number | null }>
  | Command<'RemoveSigner', { signerId: string }>
  | Command<'PlacePin', { pinId: string } & PinPlacement>
  | Command<'RemovePin', { pinId: string }>
  | Command<'SendPackage', { passwordHash: string }>
  | Command<'Sign', { signerId: string; signature: SignatureInput } & SigningOrigin>
  | Command<'FinishSigning', { signerId: string; seal: Seal | null } & SigningOrigin>
  | Command<'ArchivePackage', Record<string, never>>
  | Command<'UnarchivePackage', Record<string, never>>
  | Command<'DeletePackage', Record<string, never>>
  | Command<'ForgetPackage', Record<string, never>>;
