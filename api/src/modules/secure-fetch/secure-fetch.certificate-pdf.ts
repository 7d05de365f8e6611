import PDFDocument from 'pdfkit';
import { COPYRIGHT_TYPES, type Certificate, type CopyrightTypeId } from '@axel/domain';

const HASH_LINE = 64;

/** A hash on lines of 64 characters, so a long one is never broken elsewhere by the layout. */
const hashLines = (hex: string) => hex.match(new RegExp(`.{1,${HASH_LINE}}`, 'g')) ?? [];

/**
 * The certificate as a PDF: the same fields as the JSON, hashes in a monospace font. Content
 * streams are left uncompressed so the hashes can be found in the file as they are shown.
 */
export const certificatePdf = (certificate: Certificate): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const doc = new PDFDocument({
      size: 'A4',
      margin: 50,
      compress: false,
      info: {
        Title: `AXEL Drive certificate of authenticity ${certificate.certificateId ?? certificate.fetchId}`,
        Author: 'AXEL Drive',
        Subject: certificate.canonicalSha256,
      },
    });
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);

    const label = (text: string) => doc.font('Helvetica-Bold').fontSize(9).fillColor('#4a5568').text(text);
    const value = (text: string) => doc.font('Helvetica').fontSize(10).fillColor('#1b2330').text(text);
    const mono = (text: string) => {
      for (const line of hashLines(text)) doc.font('Courier').fontSize(8).fillColor('#1b2330').text(line);
    };

    doc.font('Helvetica-Bold').fontSize(18).fillColor('#1565c0').text('Certificate of authenticity');
    doc.font('Helvetica').fontSize(10).fillColor('#4a5568').text('AXEL Drive Secure Fetch');
    doc.moveDown();
    label('Certificate');
    value(certificate.certificateId ?? '');
    label('Secure Fetch');
    value(certificate.fetchId);
    label('Issued at');
    value(certificate.issuedAt);
    label('Blockchain transaction');
    mono(certificate.txId);
    label("SHA-256 of the canonical certificate (the transaction's data payload)");
    mono(certificate.canonicalSha256);
    doc.moveDown();

    certificate.files.forEach((file, index) => {
      doc
        .font('Helvetica-Bold')
        .fontSize(12)
        .fillColor('#1b2330')
        .text(`File ${index + 1}: ${file.name}`);
      label('Size');
      value(`${file.size} bytes`);
      label('Created / modified / last opened');
      value(`${file.created} / ${file.modified} / ${file.lastOpened ?? 'never'}`);
      if (file.md5) {
        label('MD5');
        mono(file.md5);
      }
      if (file.sha1) {
        label('SHA-1');
        mono(file.sha1);
      }
      if (file.sha3_512) {
        label('SHA3-512');
        mono(file.sha3_512);
      }
      if (file.cid) {
        label('IPFS CID');
        mono(file.cid);
      }
      doc.moveDown();
    });

    const m = certificate.metadata;
    if (m) {
      doc.font('Helvetica-Bold').fontSize(12).fillColor('#1b2330').text('Metadata');
      const rows: [string, string | null][] = [
        ['Author', m.author],
        ['Publisher', m.publisher],
        ['Copyright', m.copyrightTypeId ? COPYRIGHT_TYPES[m.copyrightTypeId as CopyrightTypeId] : null],
        ['ISBN', m.isbn],
        ['Keywords', m.keywords],
        ['Website', m.website],
        ['Contact e-mail', m.contactEmail],
      ];
      for (const [name, text] of rows) {
        if (!text) continue;
        label(name);
        value(text);
      }
    }
    doc.end();
  });
