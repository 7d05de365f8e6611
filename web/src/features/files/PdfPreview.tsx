import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Document, Page } from 'react-pdf';
import { PDF_OPTIONS } from './pdf-loader';

/** Width of a page at 100 %, on a screen wide enough for it. */
const PAGE_WIDTH = 800;
/** The preview's padding on both sides (p: 2) and room for a scroll bar. */
const GUTTER = 48;

/** At 100 % a page is as wide as the screen allows (a phone's 390 px too), never wider than PAGE_WIDTH. */
const fittedPageWidth = (viewportWidth: number, zoom: number) => Math.max(120, Math.min(PAGE_WIDTH, viewportWidth - GUTTER)) * zoom;

const useViewportWidth = () => {
  const [width, setWidth] = useState(() => window.innerWidth);
  useEffect(() => {
    const onResize = () => setWidth(window.innerWidth);
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  return width;
};
/** A preview renders at most this many pages; the rest is in the download. */
export const PDF_PREVIEW_PAGES = 100;

/**
 * A PDF rendered in the page by pdf.js (its worker served by the app itself): every page in a
 * column, drawn at the zoom and rotation of the preview's toolbar (sharp at any zoom, unlike a
 * CSS scale). pdf.js reads the file with Range requests, verified chunk by chunk by the server.
 */
const PdfPreview = ({ url, zoom, rotation }: { url: string; zoom: number; rotation: number }) => {
  const { t } = useTranslation();
  const [pages, setPages] = useState<number | null>(null);
  const [failed, setFailed] = useState(false);
  const viewport = useViewportWidth();
  const options = useMemo(() => ({ ...PDF_OPTIONS }), []);
  if (failed) return <Alert severity="error">{t('files.preview.failed')}</Alert>;
  return (
    <Box data-testid="preview-pdf" sx={{ maxHeight: '85vh', maxWidth: '100%', overflow: 'auto', p: 2 }}>
      <Document
        file={url}
        options={options}
        onLoadSuccess={(doc) => setPages(doc.numPages)}
        onLoadError={() => setFailed(true)}
        onSourceError={() => setFailed(true)}
        loading={<CircularProgress aria-label={t('common.loading')} />}
        error={<Alert severity="error">{t('files.preview.failed')}</Alert>}
      >
        {Array.from({ length: Math.min(pages ?? 0, PDF_PREVIEW_PAGES) }, (_, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a page is its index
          <Box key={i} sx={{ mb: 2, boxShadow: 3, bgcolor: 'common.white', width: 'fit-content', mx: 'auto' }} data-testid="preview-pdf-page">
            <Page
              pageNumber={i + 1}
              width={fittedPageWidth(viewport, zoom)}
              rotate={rotation}
              loading={<CircularProgress aria-label={t('common.loading')} />}
            />
          </Box>
        ))}
      </Document>
      {pages !== null && pages > PDF_PREVIEW_PAGES && (
        <Typography color="grey.300" align="center" data-testid="preview-pdf-more">
          {t('files.preview.pdfMore', { shown: PDF_PREVIEW_PAGES, total: pages })}
        </Typography>
      )}
    </Box>
  );
};

export default PdfPreview;
