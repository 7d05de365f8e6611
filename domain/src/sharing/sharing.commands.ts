import type { Command } from '../shared/decider';

/** An item the owner picked, with the facts of their storage the rules need. */
export interface ShareItemCandidate {
  readonly id: string;
  readonly kind: 'file' | 'folder';
  readonly name: string;
  /** The file's size, or the sum of the files inside a folder. */
  readonly size: number;
  /** Files inside a folder (any depth); 1 for a file. */
  readonly fileCount: number;
  /** The largest file: the file itself, or the largest one inside a folder. */
  readonly largestFileSize: number;
}

export type CreateShare = Command<
  'CreateShare',
  {
    shareId: string;
    linkId: string;
    ownerId: string;
    ownerEmail: string;
    storageId: string;
    title: string;
    description?: string | null;
    message?: string | null;
    expiresAt?: string | null;
    downloadable: boolean;
    requireLogin?: boolean;
    esign?: boolean;
    passwordHash?: string | null;
    /** Given (even empty) makes the share private. */
    recipients?: readonly string[] | undefined;
    items: readonly ShareItemCandidate[];
    /** The plan's unlimited-shared-file-size permission. */
    unlimitedFileSize: boolean;
    /** The plan has eSign (Professional, Team, Enterprise); absent: it has not. */
    esignAllowed?: boolean;
  }
>;

export interface ShareChanges {
  readonly title?: string;
  readonly description?: string | null;
  readonly expiresAt?: string | null;
  readonly downloadable?: boolean;
  readonly requireLogin?: boolean;
  /** null removes the password. */
  readonly passwordHash?: string | null;
}

export type EditShare = Command<'EditShare', { actorId: string; changes: ShareChanges }>;
export type RevokeShare = Command<'RevokeShare', { actorId: string }>;
export type DeleteShare = Command<'DeleteShare', { actorId: string }>;
export type ResendShare = Command<'ResendShare', { actorId: string }>;
export type BlockRecipient = Command<'BlockRecipient', { actorId: string; email: string }>;
export type UnblockRecipient = Command<'UnblockRecipient', { actorId: string; email: string }>;

/** From the expiry process: remind the owner, if the share still expires then. */
export type RemindShareExpiry = Command<'RemindShareExpiry', { daysLeft: number; expiresAt: string }>;

/** The owner's account is purged: forget the share, whatever its state. */
export type ForgetShare = Command<'ForgetShare', Record<string, never>>;

export type ShareCommand =
  | CreateShare
  | EditShare
  | RevokeShare
  | DeleteShare
  | ResendShare
  | BlockRecipient
  | UnblockRecipient
  | RemindShareExpiry
  | ForgetShare;
