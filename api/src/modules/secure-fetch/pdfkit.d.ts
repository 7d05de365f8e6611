/** The part of pdfkit 0.20 (which ships no types) the certificate and the e-sign tests use. */
declare module 'pdfkit' {
  import type { Readable } from 'node:stream';
  interface TextOptions {
    width?: number;
    align?: 'left' | 'center' | 'right' | 'justify';
    continued?: boolean;
    lineGap?: number;
  }
  class PDFDocument extends Readable {
    constructor(options?: { size?: string; margin?: number; compress?: boolean; info?: Record<string, string | Date>; autoFirstPage?: boolean });
    addPage(options?: { size?: string; layout?: 'portrait' | 'landscape' }): this;
    font(name: string): this;
    fontSize(size: number): this;
    fillColor(color: string): this;
    text(text: string, options?: TextOptions): this;
    text(text: string, x: number, y: number, options?: TextOptions): this;
    moveDown(lines?: number): this;
    end(): void;
  }
  export default PDFDocument;
}
