import { DRAWN_SIGNATURE_MAX, TYPED_SIGNATURE_MAX } from '@axel/domain/esign/esign.decide';
import type { PinKind, Signature } from './esign-receiver.api';

export { DRAWN_SIGNATURE_MAX, TYPED_SIGNATURE_MAX };

/** The face a typed signature is shown in: the italic serif the sealed document draws it with. */
export const SCRIPT_FONT = '"Times New Roman", Times, "Liberation Serif", serif';

/** The ten signer colours (spec: colours 1 to 10), the same the sealed document underlines fields with. */
const SIGNER_COLORS = ['#2166d9', '#d93833', '#26994d', '#e68c1a', '#8c40bf', '#1a99a6', '#cc338c', '#73731a', '#595959', '#8c4d26'];
export const signerColor = (color: number) => SIGNER_COLORS[(((color - 1) % SIGNER_COLORS.length) + SIGNER_COLORS.length) % SIGNER_COLORS.length]!;

/** Initials of a typed name, as the sealed document draws them: the first letter of each word, at most four. */
export const initialsOf = (text: string) =>
  text
    .split(/\s+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase())
    .join('')
    .slice(0, 4);

/** Today as the sealed document writes a date field (YYYY-MM-DD, the day of signing). */
export const todayIso = (now: Date = new Date()) => now.toISOString().slice(0, 10);

export type FieldContent = { kind: 'image'; src: string } | { kind: 'text'; text: string; script: boolean };

/**
 * What a filled field shows before the document is sealed: the signature (or its initials), the
 * date of today, or for a text field the signer's name, as the seal writes them.
 */
export const fieldContent = (kind: PinKind, signature: Signature | null, signerName: string, now?: Date): FieldContent | null => {
  switch (kind) {
    case 'signature':
      if (!signature) return null;
      return signature.type === 'drawn' ? { kind: 'image', src: signature.image } : { kind: 'text', text: signature.text, script: true };
    case 'initials':
      if (!signature) return null;
      return signature.type === 'drawn' ? { kind: 'image', src: signature.image } : { kind: 'text', text: initialsOf(signature.text), script: true };
    case 'date':
      return { kind: 'text', text: todayIso(now), script: false };
    case 'text':
      return { kind: 'text', text: signerName, script: false };
  }
};

export interface FieldBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * A field's box as the reader sees the page: fields are stored as fractions of the unrotated page
 * from its top-left corner, and a page with `/Rotate` (clockwise) is shown turned.
 */
export const shownBox = (box: FieldBox, rotation: number): FieldBox => {
  const { x, y, width: w, height: h } = box;
  switch (((rotation % 360) + 360) % 360) {
    case 90:
      return { x: 1 - (y + h), y: x, width: h, height: w };
    case 180:
      return { x: 1 - (x + w), y: 1 - (y + h), width: w, height: h };
    case 270:
      return { x: y, y: 1 - (x + w), width: h, height: w };
    default:
      return box;
  }
};
