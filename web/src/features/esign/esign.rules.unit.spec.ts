import { describe, expect, it } from 'vitest';
import {
  isPdf,
  isValidPackageName,
  missingForSend,
  movedPin,
  nextFreeColor,
  packageFormSchema,
  pageFraction,
  pinAt,
  shownRect,
  signerColor,
  signerFormSchema,
  storedRect,
} from './esign.rules';

describe('package form (spec rules §5)', () => {
  it('refuses a name with special characters and accepts letters of any script, digits and plain marks', () => {
    expect(isValidPackageName('Lease 2026')).toBe(true);
    expect(isValidPackageName("Contrato de arrendamiento (José & Ana's)")).toBe(true);
    expect(isValidPackageName('Lease <2026>')).toBe(false);
    expect(isValidPackageName('Lease; DROP')).toBe(false);
    expect(isValidPackageName('   ')).toBe(false);
    const refused = packageFormSchema.safeParse({ name: 'Lease #1', message: '', password: '' });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]).toMatchObject({ path: ['name'], message: 'errors.ESIGN_INVALID_NAME' });
  });

  it('takes no password or one of at least 8 characters', () => {
    expect(packageFormSchema.safeParse({ name: 'Lease', message: '', password: '' }).success).toBe(true);
    expect(packageFormSchema.safeParse({ name: 'Lease', message: '', password: 'Sign-here-2026' }).success).toBe(true);
    expect(packageFormSchema.safeParse({ name: 'Lease', message: '', password: 'short' }).error?.issues[0]?.message).toBe('esign.upload.passwordShort');
  });

  it('takes PDFs only, by type or by name', () => {
    expect(isPdf({ name: 'lease.pdf', type: 'application/pdf' })).toBe(true);
    expect(isPdf({ name: 'LEASE.PDF', type: '' })).toBe(true);
    expect(isPdf({ name: 'scan', mime: 'application/pdf; charset=binary' })).toBe(true);
    expect(isPdf({ name: 'notes.txt', type: 'text/plain' })).toBe(false);
    expect(isPdf({ name: 'photo.jpg', mime: 'image/jpeg' })).toBe(false);
  });
});

describe('signers', () => {
  it('refuses an e-mail already in the package, whatever its case, and a malformed one', () => {
    const schema = signerFormSchema(['ada@example.com']);
    expect(schema.safeParse({ name: 'Ada', email: 'ADA@example.com', color: 2, order: null }).error?.issues[0]?.message).toBe(
      'errors.ESIGN_SIGNER_EMAIL_EXISTS',
    );
    expect(schema.safeParse({ name: 'Bob', email: 'bob@', color: 2, order: null }).error?.issues[0]?.message).toBe('errors.ESIGN_INVALID_EMAIL');
    expect(schema.safeParse({ name: 'Bob', email: 'bob@example.com', color: 2, order: 1 }).success).toBe(true);
  });

  it('has colours 1 to 10 only, each its own, and offers the first one free', () => {
    const schema = signerFormSchema([]);
    expect(schema.safeParse({ name: 'A', email: 'a@example.com', color: 0, order: null }).success).toBe(false);
    expect(schema.safeParse({ name: 'A', email: 'a@example.com', color: 11, order: null }).success).toBe(false);
    expect(new Set(Array.from({ length: 10 }, (_, i) => signerColor(i + 1))).size).toBe(10);
    expect(nextFreeColor([])).toBe(1);
    expect(nextFreeColor([1, 2, 4])).toBe(3);
    expect(nextFreeColor([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])).toBe(1);
  });
});

describe('fields on a page', () => {
  it('centres a new field where the page was clicked and keeps it whole inside the page', () => {
    expect(pinAt({ x: 0.5, y: 0.5 }, 'signature')).toEqual({ x: 0.36, y: 0.47, width: 0.28, height: 0.06 });
    expect(pinAt({ x: 0.99, y: 0.99 }, 'signature')).toEqual({ x: 0.72, y: 0.94, width: 0.28, height: 0.06 });
    expect(pinAt({ x: 0, y: 0 }, 'initials')).toEqual({ x: 0, y: 0, width: 0.12, height: 0.05 });
  });

  it('reads a click as fractions of the page box, and a drag stops at the edges', () => {
    expect(pageFraction(150, 300, { left: 100, top: 100, width: 400, height: 800 })).toEqual({ x: 0.125, y: 0.25 });
    expect(pageFraction(50, 1000, { left: 100, top: 100, width: 400, height: 800 })).toEqual({ x: 0, y: 1 });
    const pin = { x: 0.1, y: 0.1, width: 0.2, height: 0.1 };
    expect(movedPin(pin, 0.3, 0.2)).toEqual({ x: 0.4, y: 0.3, width: 0.2, height: 0.1 });
    expect(movedPin(pin, 5, -5)).toEqual({ x: 0.8, y: 0, width: 0.2, height: 0.1 });
  });

  it('stores a field of a turned page in the unrotated page, and shows it turned again', () => {
    const stored = { x: 0.1, y: 0.2, width: 0.3, height: 0.05 };
    // a page with /Rotate 90 shows turned clockwise: the top-left corner of the unrotated page is at the top right
    expect(shownRect(stored, 90)).toEqual({ x: 0.75, y: 0.1, width: 0.05, height: 0.3 });
    expect(shownRect(stored, 180)).toEqual({ x: 0.6, y: 0.75, width: 0.3, height: 0.05 });
    for (const rotate of [0, 90, 180, 270, -90]) expect(storedRect(shownRect(stored, rotate), rotate)).toEqual(stored);
  });
});

describe('ready to send', () => {
  const entry = { id: 'e1', fileId: null, name: 'a.pdf', size: 1, sha256: '', pageCount: 1 };
  const signer = (id: string) => ({ id, linkId: 'x', name: id, email: `${id}@example.com`, color: 1, order: null, signedAt: null, finishedAt: null });
  const pin = (signerId: string) => ({
    id: `p-${signerId}`,
    entryId: 'e1',
    signerId,
    kind: 'signature' as const,
    page: 1,
    x: 0,
    y: 0,
    width: 0.1,
    height: 0.1,
    filled: false,
  });

  it('needs a document, a signer and a field for every signer', () => {
    expect(missingForSend({ entries: [], links: [], pins: [] })).toEqual(['documents', 'signers']);
    expect(missingForSend({ entries: [entry], links: [signer('a'), signer('b')], pins: [pin('a')] })).toEqual(['fields']);
    expect(missingForSend({ entries: [entry], links: [signer('a'), signer('b')], pins: [pin('a'), pin('b')] })).toEqual([]);
  });
});
