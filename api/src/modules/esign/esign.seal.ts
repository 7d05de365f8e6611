import { createHash } from 'node:crypto';
import { degrees, PDFDocument, rgb, StandardFonts, type PDFFont, type PDFPage } from '@cantoo/pdf-lib';
import { PDF, rgb as libRgb } from '@libpdf/core';
import { sealSigner, type SealKey } from './esign.seal-key';

/*
 * The completed document, built once when the last signer finishes:
 *   1. every entry's pages, with each signer's fields drawn into them (@cantoo/pdf-lib), saved;
 *   2. a certificate page added as an incremental update (@libpdf/core): the package, each signer
 *      with e-mail, times, IP and user agent, the SHA-256 of every original and of part 1 (the
 *      first bytes of this very file), and the package's last event in the audit chain;
 *   3. a PAdES signature over the whole with the product's sealing key, again incremental.
 * Part 1 stays a prefix of the final file, so anyone can check the pages against the hash the
 * certificate page states, and the signature covers everything.
 */

export interface SealEntry {
  readonly id: string;
  readonly name: string;
  readonly bytes: Uint8Array;
  readonly sha256: string;
}

export interface SealSignerInput {
  readonly id: string;
  readonly name: string;
  readonly email: string;
  readonly color: number;
  readonly signature: { readonly type: 'typed' | 'drawn'; readonly value: string };
  readonly signedAt: string;
  readonly finishedAt: string;
  readonly ip: string | null;
  readonly userAgent: string | null;
}

export interface SealPin {
  readonly entryId: string;
  readonly signerId: string;
  readonly kind: 'signature' | 'initials' | 'date' | 'text';
  readonly page: number;
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

export interface SealInput {
  readonly packageId: string;
  readonly name: string;
  readonly entries: readonly SealEntry[];
  readonly signers: readonly SealSignerInput[];
  readonly pins: readonly SealPin[];
  readonly completedAt: Date;
  /** The package's last event before completion, and its audit-chain link when the chain has reached it. */
  readonly auditChain: { readonly position: number; readonly link: string | null; readonly verifyUrl: string } | null;
}

export interface SealedDocument {
  readonly bytes: Uint8Array;
  readonly sha256: string;
  /** Length and SHA-256 of the pages part (the file's first bytes), as the certificate page states them. */
  readonly pagesLength: number;
  readonly pagesSha256: string;
}

/** The ten signer colors (spec §9: 1 to 10), as the web app shows them. */
export const SIGNER_RGB: readonly (readonly [number, number, number])[] = [
  [0.13, 0.4, 0.85],
  [0.85, 0.22, 0.2],
  [0.15, 0.6, 0.3],
  [0.9, 0.55, 0.1],
  [0.55, 0.25, 0.75],
  [0.1, 0.6, 0.65],
  [0.8, 0.2, 0.55],
  [0.45, 0.45, 0.1],
  [0.35, 0.35, 0.35],
  [0.55, 0.3, 0.15],
];
const colorOf = (n: number) => SIGNER_RGB[(n - 1 + SIGNER_RGB.length) % SIGNER_RGB.length]!;

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** The standard fonts speak WinAnsi: other characters are shown as '?'. */
const latin = (text: string) => text.normalize('NFC').replace(/[^\x20-\x7e\xa0-\xff]/g, '?');

const initialsOf = (text: string) =>
  text
    .split(/\s+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase())
    .join('')
    .slice(0, 4);

/**
 * A field's box on its page in user space, and how to draw upright on a rotated page: the origin
 * of the box's lower-left corner as the reader sees it, the rotation, and the width and height as
 * the reader sees them. Fractions are of the unrotated CropBox, from its top-left corner.
 */
const boxOn = (page: PDFPage, pin: SealPin) => {
  const crop = page.getCropBox();
  const bx = crop.x + pin.x * crop.width;
  const bw = pin.width * crop.width;
  const bh = pin.height * crop.height;
  const by = crop.y + crop.height - pin.y * crop.height - bh;
  const rotation = (((page.getRotation().angle % 360) + 360) % 360) as 0 | 90 | 180 | 270;
  switch (rotation) {
    case 90:
      return { x: bx + bw, y: by, rotate: 90, w: bh, h: bw, rect: { bx, by, bw, bh } };
    case 180:
      return { x: bx + bw, y: by + bh, rotate: 180, w: bw, h: bh, rect: { bx, by, bw, bh } };
    case 270:
      return { x: bx, y: by + bh, rotate: 270, w: bh, h: bw, rect: { bx, by, bw, bh } };
    default:
      return { x: bx, y: by, rotate: 0, w: bw, h: bh, rect: { bx, by, bw, bh } };
  }
};

/** A point `(dx, dy)` of the reader's box frame, in user space. */
const at = (box: ReturnType<typeof boxOn>, dx: number, dy: number) => {
  const r = (box.rotate * Math.PI) / 180;
  return { x: box.x + dx * Math.cos(r) - dy * Math.sin(r), y: box.y + dx * Math.sin(r) + dy * Math.cos(r) };
};

const fitText = (page: PDFPage, box: ReturnType<typeof boxOn>, text: string, font: PDFFont, color: ReturnType<typeof rgb>) => {
  const shown = latin(text);
  const size = Math.max(4, Math.min(box.h * 0.7, (box.w * 0.95 * 1000) / Math.max(1, font.widthOfTextAtSize(shown, 1000))));
  const origin = at(box, box.w * 0.03, (box.h - size * 0.75) / 2);
  page.drawText(shown, { x: origin.x, y: origin.y, size, font, color, rotate: degrees(box.rotate) });
};

const drawFields = async (out: PDFDocument, input: SealInput) => {
  const regular = await out.embedFont(StandardFonts.Helvetica);
  const script = await out.embedFont(StandardFonts.TimesRomanItalic);
  const signers = new Map(input.signers.map((s) => [s.id, s]));
  const images = new Map<string, Awaited<ReturnType<PDFDocument['embedPng']>>>();
  for (const s of input.signers) {
    if (s.signature.type === 'drawn') images.set(s.id, await out.embedPng(Buffer.from(s.signature.value.split(',')[1] ?? '', 'base64')));
  }
  for (const entry of input.entries) {
    const source = await PDFDocument.load(entry.bytes, { updateMetadata: false });
    const copied = await out.copyPages(source, source.getPageIndices());
    for (const page of copied) out.addPage(page);
    for (const pin of input.pins.filter((p) => p.entryId === entry.id)) {
      const page = copied[pin.page - 1];
      const signer = signers.get(pin.signerId);
      if (!page || !signer) continue;
      const box = boxOn(page, pin);
      const [r, g, b] = colorOf(signer.color);
      const color = rgb(r, g, b);
      const underlineFrom = at(box, 0, 0);
      const underlineTo = at(box, box.w, 0);
      page.drawLine({ start: underlineFrom, end: underlineTo, thickness: 0.75, color });
      const image = images.get(signer.id);
      if ((pin.kind === 'signature' || pin.kind === 'initials') && image) {
        const scale = Math.min(box.w / image.width, box.h / image.height);
        const w = image.width * scale;
        const h = image.height * scale;
        const origin = at(box, (box.w - w) / 2, (box.h - h) / 2);
        page.drawImage(image, { x: origin.x, y: origin.y, width: w, height: h, rotate: degrees(box.rotate) });
      } else if (pin.kind === 'signature') {
        fitText(page, box, signer.signature.value, script, rgb(0.05, 0.05, 0.2));
      } else if (pin.kind === 'initials') {
        fitText(page, box, initialsOf(signer.signature.value), script, rgb(0.05, 0.05, 0.2));
      } else if (pin.kind === 'date') {
        fitText(page, box, signer.signedAt.slice(0, 10), regular, rgb(0, 0, 0));
      } else {
        fitText(page, box, signer.name, regular, rgb(0, 0, 0));
      }
    }
  }
};

/** The certificate page's lines, in reading order. */
export const certificateLines = (input: SealInput, pages: { length: number; sha256: string }): string[] => [
  'AXEL Drive - Certificate of completion',
  '',
  `Package: ${input.name}`,
  `Package id: ${input.packageId}`,
  `Completed: ${input.completedAt.toISOString()}`,
  '',
  'Documents (SHA-256 of each original):',
  ...input.entries.map((e) => `  ${e.name}: ${e.sha256}`),
  `Signed pages (first ${pages.length} bytes of this file) SHA-256: ${pages.sha256}`,
  '',
  'Signers:',
  ...input.signers.flatMap((s, i) => [
    `  ${i + 1}. ${s.name} <${s.email}>`,
    `     Signed: ${s.signedAt}  Finished: ${s.finishedAt}  Signature: ${s.signature.type}`,
    `     IP: ${s.ip ?? 'unknown'}`,
    `     User agent: ${s.userAgent ?? 'unknown'}`,
  ]),
  '',
  'Audit trail:',
  ...(input.auditChain
    ? [
        `  Last package event: position ${input.auditChain.position}`,
        `  Audit chain link: ${input.auditChain.link ?? 'not yet sealed into the chain'}`,
        `  Check it against a signed export: ${input.auditChain.verifyUrl}`,
      ]
    : ['  not available']),
  '',
  'This document is sealed with the AXEL Drive e-sign seal (PAdES). Any change after sealing invalidates the signature.',
];

const addCertificatePage = async (pagesPart: Uint8Array, lines: readonly string[]): Promise<Uint8Array> => {
  const pdf = await PDF.load(pagesPart);
  const page = pdf.addPage({ size: 'a4' });
  let y = page.height - 56;
  for (const [i, line] of lines.entries()) {
    const size = i === 0 ? 16 : 9;
    page.drawText(latin(line), { x: 48, y, size, font: i === 0 ? 'Helvetica-Bold' : 'Helvetica', color: libRgb(0, 0, 0), maxWidth: page.width - 96 });
    const wrapped = Math.max(1, Math.ceil((latin(line).length * size * 0.5) / (page.width - 96)));
    y -= (i === 0 ? 26 : 12) * wrapped;
  }
  return pdf.save({ incremental: true });
};

/** Builds, certifies and signs the completed document. */
export const sealPackage = async (input: SealInput, key: SealKey): Promise<SealedDocument> => {
  const out = await PDFDocument.create({ updateMetadata: false });
  out.setTitle(latin(input.name));
  out.setProducer('AXEL Drive e-sign');
  out.setCreationDate(input.completedAt);
  out.setModificationDate(input.completedAt);
  await drawFields(out, input);
  const pagesPart = await out.save({ useObjectStreams: false });
  const pages = { length: pagesPart.length, sha256: sha256(pagesPart) };
  const certified = await addCertificatePage(pagesPart, certificateLines(input, pages));
  const pdf = await PDF.load(certified);
  const { bytes } = await pdf.sign({
    signer: sealSigner(key),
    reason: `Completed e-sign package ${input.packageId}`,
    location: 'AXEL Drive',
    signingTime: input.completedAt,
    level: 'B-B',
  });
  return { bytes, sha256: sha256(bytes), pagesLength: pages.length, pagesSha256: pages.sha256 };
};

/** Number of pages of a PDF, or null when the bytes are not a readable PDF. */
export const pdfPageCount = async (bytes: Uint8Array): Promise<number | null> => {
  if (Buffer.from(bytes.subarray(0, 1024)).indexOf('%PDF-') < 0) return null;
  try {
    const doc = await PDFDocument.load(bytes, { updateMetadata: false });
    const n = doc.getPageCount();
    return n > 0 ? n : null;
  } catch {
    return null;
  }
};
