import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Document, Page, pdfjs } from 'react-pdf';
// bundled with the app (no CDN), the same worker the file preview loads
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';
import { passwordHeader, type Signature, type SigningEntry, type SigningPin } from './esign-receiver.api';
import { fieldContent, SCRIPT_FONT, shownBox, signerColor } from './signature-text';

pdfjs.GlobalWorkerOptions.workerSrc = workerUrl;

/** A page at most this wide; narrower on a phone (the page's padding and a scroll bar kept free). */
const PAGE_WIDTH = 800;
const GUTTER = 40;
const fittedWidth = (viewport: number) => Math.max(200, Math.min(PAGE_WIDTH, viewport - GUTTER));

const useViewportWidth = () => {
  const [width, setWidth] = useState(() => window.innerWidth);
  useEffect(() => {
    const onResize = () => setWidth(window.innerWidth);
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  return width;
};

export interface SigningDocumentsProps {
  entries: SigningEntry[];
  password: string;
  signerName: string;
  signature: Signature | null;
  filled: string[];
  /** Fields can be clicked (false while finishing). */
  active: boolean;
  onPin: (pin: SigningPin) => void;
}

const FieldBox = ({ pin, rotation, props }: { pin: SigningPin; rotation: number; props: SigningDocumentsProps }) => {
  const { t } = useTranslation();
  const color = signerColor(pin.color);
  const box = shownBox(pin, rotation);
  const place = {
    position: 'absolute',
    left: `${box.x * 100}%`,
    top: `${box.y * 100}%`,
    width: `${box.width * 100}%`,
    height: `${box.height * 100}%`,
  } as const;
  if (!pin.mine) {
    // another signer's field: where it is, in their colour, not clickable
    return (
      <Box
        data-testid="esign-other-pin"
        data-filled={pin.filled ? 'true' : 'false'}
        aria-hidden
        sx={{
          ...place,
          border: 1,
          borderStyle: pin.filled ? 'solid' : 'dashed',
          borderColor: color,
          bgcolor: `${color}14`,
          pointerEvents: 'none',
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'center',
          overflow: 'hidden',
        }}
      >
        {pin.filled && (
          <Typography component="span" noWrap sx={{ fontSize: 'clamp(9px, 2vw, 13px)', color, px: 0.5 }}>
            {t('esignReceiver.pin.signedBefore')}
          </Typography>
        )}
      </Box>
    );
  }
  const filled = props.filled.includes(pin.id);
  const content = filled ? fieldContent(pin.kind, props.signature, props.signerName) : null;
  const label = t(`esignReceiver.pin.${pin.kind}`);
  return (
    <ButtonBase
      data-testid="esign-pin"
      data-kind={pin.kind}
      data-filled={filled ? 'true' : 'false'}
      aria-label={filled ? t('esignReceiver.pin.filledLabel', { field: label }) : t('esignReceiver.pin.fillLabel', { field: label })}
      disabled={!props.active}
      onClick={() => props.onPin(pin)}
      sx={{
        ...place,
        border: 2,
        borderColor: color,
        borderRadius: 0.5,
        bgcolor: filled ? 'rgba(255,255,255,0.6)' : `${color}33`,
        overflow: 'hidden',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        '&:focus-visible': { outline: 3, outlineColor: color, outlineOffset: 2 },
        animation: filled ? 'none' : 'esignPulse 1.6s ease-in-out infinite',
        '@keyframes esignPulse': { '0%, 100%': { boxShadow: `0 0 0 0 ${color}66` }, '50%': { boxShadow: `0 0 0 4px ${color}33` } },
      }}
    >
      {content?.kind === 'image' ? (
        <Box component="img" src={content.src} alt={label} sx={{ maxWidth: '100%', maxHeight: '100%', objectFit: 'contain' }} />
      ) : content?.kind === 'text' ? (
        <Typography
          component="span"
          noWrap
          sx={{
            fontFamily: content.script ? SCRIPT_FONT : undefined,
            fontStyle: content.script ? 'italic' : undefined,
            fontSize: 'clamp(9px, 2.2vw, 18px)',
            color: '#0d0d33',
            px: 0.5,
          }}
        >
          {content.text}
        </Typography>
      ) : (
        <Typography component="span" noWrap sx={{ fontSize: 'clamp(9px, 2vw, 14px)', fontWeight: 600, color, px: 0.5 }}>
          {filled ? t('esignReceiver.pin.signedBefore') : label}
        </Typography>
      )}
    </ButtonBase>
  );
};

const EntryDocument = ({ entry, props, width }: { entry: SigningEntry; props: SigningDocumentsProps; width: number }) => {
  const { t } = useTranslation();
  const [failed, setFailed] = useState(false);
  // each page's /Rotate, once pdf.js has read it: a turned page shows its fields turned with it
  const [rotations, setRotations] = useState<Record<number, number>>({});
  // pdf.js fetches the PDF itself, with the package password as the other calls send it
  const file = useMemo(() => ({ url: entry.contentUrl, httpHeaders: passwordHeader(props.password) }), [entry.contentUrl, props.password]);
  // the CSP allows no eval: pdf.js is told so instead of finding out
  const options = useMemo(() => ({ isEvalSupported: false }), []);
  if (failed) return <Alert severity="error">{t('esignReceiver.documentFailed', { name: entry.name })}</Alert>;
  return (
    <Box component="section" aria-label={entry.name} data-testid="esign-document" sx={{ mb: 3 }}>
      <Typography variant="subtitle1" sx={{ fontWeight: 600, mb: 1, overflowWrap: 'anywhere' }}>
        {entry.name}
      </Typography>
      <Document
        file={file}
        options={options}
        onLoadError={() => setFailed(true)}
        onSourceError={() => setFailed(true)}
        loading={<CircularProgress aria-label={t('common.loading')} />}
      >
        {Array.from({ length: entry.pageCount }, (_, i) => {
          const pageNumber = i + 1;
          const pins = entry.pins.filter((p) => p.page === pageNumber);
          const rotation = rotations[pageNumber] ?? 0;
          return (
            <Box
              key={pageNumber}
              data-testid="esign-page"
              data-page={pageNumber}
              sx={{ position: 'relative', width: 'fit-content', mx: 'auto', mb: 2, boxShadow: 3, bgcolor: 'common.white' }}
            >
              <Page
                pageNumber={pageNumber}
                width={width}
                renderTextLayer={false}
                renderAnnotationLayer={false}
                onLoadSuccess={(page) => setRotations((r) => (r[pageNumber] === page.rotate ? r : { ...r, [pageNumber]: page.rotate }))}
                loading={<Box sx={{ width, height: width * 1.3 }} />}
              />
              {pins.map((pin) => (
                <FieldBox key={pin.id} pin={pin} rotation={rotation} props={props} />
              ))}
            </Box>
          );
        })}
      </Document>
    </Box>
  );
};

/** The package's documents page by page, the signer's own fields clickable in their colour over them. */
const SigningDocuments = (props: SigningDocumentsProps) => {
  const viewport = useViewportWidth();
  const width = fittedWidth(viewport);
  return (
    <Box sx={{ maxWidth: '100%' }}>
      {props.entries.map((entry) => (
        <EntryDocument key={entry.id} entry={entry} props={props} width={width} />
      ))}
    </Box>
  );
};

export default SigningDocuments;
