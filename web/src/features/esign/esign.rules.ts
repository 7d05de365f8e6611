import { checkedPackageName, PACKAGE_MESSAGE_MAX, SIGNER_COLORS, SIGNER_NAME_MAX } from '@axel/domain/esign/esign.decide';
import type { PinKind } from '@axel/domain/esign/esign.events';
import { z } from 'zod';
import type { EsignPackageDetail, EsignPin } from './esign.api';

/** The package name rule of the server (letters, digits, spaces and a few marks), checked before it is sent. */
export const isValidPackageName = (name: string) => {
  try {
    checkedPackageName(name);
    return true;
  } catch {
    return false;
  }
};

export const packageFormSchema = z.object({
  name: z.string().trim().min(1, 'validation.required').refine(isValidPackageName, 'errors.ESIGN_INVALID_NAME'),
  message: z.string().max(PACKAGE_MESSAGE_MAX, 'validation.tooLong'),
  password: z.union([z.literal(''), z.string().min(8, 'esign.upload.passwordShort').max(128, 'validation.tooLong')]),
});
export type PackageForm = z.infer<typeof packageFormSchema>;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;

/** A new signer, checked against those already in the package (e-mails are unique, whatever their case). */
export const signerFormSchema = (taken: readonly string[]) =>
  z.object({
    name: z.string().trim().min(1, 'validation.required').max(SIGNER_NAME_MAX, 'validation.tooLong'),
    email: z
      .string()
      .trim()
      .regex(EMAIL, 'errors.ESIGN_INVALID_EMAIL')
      .refine((e) => !taken.some((t) => t.toLowerCase() === e.toLowerCase()), 'errors.ESIGN_SIGNER_EMAIL_EXISTS'),
    color: z.number().int().min(SIGNER_COLORS.min).max(SIGNER_COLORS.max),
    order: z.number().int().min(1).max(1000).nullable(),
  });

/** Only PDFs can be signed: by type, or by name when the browser or the storage does not know the type. */
export const isPdf = (file: { name: string; mime?: string | null; type?: string }) => {
  const mime = (file.mime ?? file.type ?? '').split(';')[0]?.trim().toLowerCase();
  return mime === 'application/pdf' || file.name.toLowerCase().endsWith('.pdf');
};

/** Signer colours 1 to 10 (spec section 9), each readable on a white page. */
export const SIGNER_PALETTE = ['#1e88e5', '#e53935', '#43a047', '#8e24aa', '#fb8c00', '#00897b', '#d81b60', '#6d4c41', '#3949ab', '#7cb342'] as const;
export const signerColor = (color: number) => SIGNER_PALETTE[(Math.min(Math.max(color, 1), 10) - 1) % 10]!;
export const COLOR_CHOICES = Array.from({ length: SIGNER_COLORS.max }, (_, i) => i + 1);

/** The first colour no signer of the package uses yet (1 when all ten are taken). */
export const nextFreeColor = (used: readonly number[]) => COLOR_CHOICES.find((c) => !used.includes(c)) ?? 1;

/** A new field's size, as fractions of the page. */
export const PIN_SIZES: Record<PinKind, { width: number; height: number }> = {
  signature: { width: 0.28, height: 0.06 },
  initials: { width: 0.12, height: 0.05 },
  date: { width: 0.18, height: 0.04 },
  text: { width: 0.26, height: 0.04 },
};

const clamp = (v: number, min: number, max: number) => Math.min(Math.max(v, min), max);
const round = (v: number) => Math.round(v * 10_000) / 10_000;

/** A field centred where the page was clicked (fractions of the page), kept whole inside the page. */
export const pinAt = (at: { x: number; y: number }, kind: PinKind): { x: number; y: number; width: number; height: number } => {
  const { width, height } = PIN_SIZES[kind];
  return { x: round(clamp(at.x - width / 2, 0, 1 - width)), y: round(clamp(at.y - height / 2, 0, 1 - height)), width, height };
};

/** A field dragged by (dx, dy) fractions of the page, stopped at the page's edges. */
export const movedPin = <P extends Pick<EsignPin, 'x' | 'y' | 'width' | 'height'>>(pin: P, dx: number, dy: number): P => ({
  ...pin,
  x: round(clamp(pin.x + dx, 0, 1 - pin.width)),
  y: round(clamp(pin.y + dy, 0, 1 - pin.height)),
});

/** The fraction of the page a pointer is at, from the page's box on screen. */
export const pageFraction = (clientX: number, clientY: number, box: { left: number; top: number; width: number; height: number }) => ({
  x: clamp((clientX - box.left) / box.width, 0, 1),
  y: clamp((clientY - box.top) / box.height, 0, 1),
});

export type MissingStep = 'documents' | 'signers' | 'fields';

/** What a draft still lacks before it can be sent: a document, a signer, a field for every signer. */
export const missingForSend = (pkg: Pick<EsignPackageDetail, 'entries' | 'links' | 'pins'>): MissingStep[] => {
  const missing: MissingStep[] = [];
  if (pkg.entries.length === 0) missing.push('documents');
  if (pkg.links.length === 0) missing.push('signers');
  if (pkg.links.length > 0 && pkg.links.some((s) => !pkg.pins.some((p) => p.signerId === s.id))) missing.push('fields');
  return missing;
};

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A point of the unrotated page as it shows on a page turned by `/Rotate` degrees clockwise. */
const shownPoint = (x: number, y: number, rotate: number): [number, number] => {
  switch (((rotate % 360) + 360) % 360) {
    case 90:
      return [1 - y, x];
    case 180:
      return [1 - x, 1 - y];
    case 270:
      return [y, 1 - x];
    default:
      return [x, y];
  }
};

const storedPoint = (u: number, v: number, rotate: number): [number, number] => {
  switch (((rotate % 360) + 360) % 360) {
    case 90:
      return [v, 1 - u];
    case 180:
      return [1 - u, 1 - v];
    case 270:
      return [1 - v, u];
    default:
      return [u, v];
  }
};

const spanning = ([ax, ay]: [number, number], [bx, by]: [number, number]): Rect => ({
  x: round(Math.min(ax, bx)),
  y: round(Math.min(ay, by)),
  width: round(Math.abs(bx - ax)),
  height: round(Math.abs(by - ay)),
});

/**
 * Fields are stored as fractions of the page's unrotated CropBox (what the server draws into); a
 * page with `/Rotate` shows turned, so a field is turned with it on screen and back when stored.
 */
export const shownRect = (r: Rect, rotate: number): Rect => spanning(shownPoint(r.x, r.y, rotate), shownPoint(r.x + r.width, r.y + r.height, rotate));
export const storedRect = (r: Rect, rotate: number): Rect => spanning(storedPoint(r.x, r.y, rotate), storedPoint(r.x + r.width, r.y + r.height, rotate));
