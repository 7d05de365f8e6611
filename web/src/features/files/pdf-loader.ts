import { pdfjs } from 'react-pdf';
import 'react-pdf/dist/Page/AnnotationLayer.css';
import 'react-pdf/dist/Page/TextLayer.css';
// bundled with the app (no CDN): PDFs render offline
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';

pdfjs.GlobalWorkerOptions.workerSrc = workerUrl;

/** pdf.js options of every PDF the app draws: the CSP allows no eval (pdf.js is told so instead of finding out), and the session cookie goes along. */
export const PDF_OPTIONS = { isEvalSupported: false, withCredentials: true } as const;
