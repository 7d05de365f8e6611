import CloseOutlined from '@mui/icons-material/CloseOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import { useEffect, useMemo, useRef, useState, type PointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Document, Page } from 'react-pdf';
import { PDF_OPTIONS } from '../files/pdf-loader';
import { entryContentUrl, type EsignEntry, type EsignPin, type EsignSigner, type NewPin, type PinKind } from './esign.api';
import { movedPin, pageFraction, pinAt, type Rect, shownRect, signerColor, storedRect } from './esign.rules';

/** Pages drawn for placing fields; the rest of a longer document is not shown here. */
const MAX_PAGES = 100;
const PAGE_WIDTH = 800;
/** A press that moves less than this is a tap, not a drag. */
const DRAG_THRESHOLD_PX = 4;

const useWidth = () => {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const observer = new ResizeObserver(() => setWidth(el.clientWidth));
    observer.observe(el);
    setWidth(el.clientWidth);
    return () => observer.disconnect();
  }, []);
  return { ref, width };
};

export interface PinBoardProps {
  userId: string;
  packageId: string;
  entry: EsignEntry;
  pins: readonly EsignPin[];
  signers: readonly EsignSigner[];
  /** Where a click or tap on a page places a field; none: the board is read-only. */
  placing?: { signerId: string; kind: PinKind } | null;
  onPlace?: (pin: NewPin) => void;
  onMove?: (pin: EsignPin, to: Rect) => void;
  onRemove?: (pin: EsignPin) => void;
}

const PinBox = ({
  pin,
  signer,
  rotate,
  editable,
  onMove,
  onRemove,
}: {
  pin: EsignPin;
  signer: EsignSigner | undefined;
  rotate: number;
  editable: boolean;
  onMove?: (to: Rect) => void;
  onRemove?: () => void;
}) => {
  const { t } = useTranslation();
  const [drag, setDrag] = useState<{ startX: number; startY: number; dx: number; dy: number; box: DOMRect } | null>(null);
  const shown = shownRect(pin, rotate);
  const color = signerColor(signer?.color ?? 1);
  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    if (!editable) return;
    e.stopPropagation();
    const page = (e.currentTarget.parentElement as HTMLElement).getBoundingClientRect();
    e.currentTarget.setPointerCapture(e.pointerId);
    setDrag({ startX: e.clientX, startY: e.clientY, dx: 0, dy: 0, box: page });
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    if (drag) setDrag({ ...drag, dx: e.clientX - drag.startX, dy: e.clientY - drag.startY });
  };
  const onPointerUp = (e: PointerEvent<HTMLDivElement>) => {
    if (!drag) return;
    e.stopPropagation();
    setDrag(null);
    if (Math.hypot(drag.dx, drag.dy) < DRAG_THRESHOLD_PX) return;
    onMove?.(storedRect(movedPin(shown, drag.dx / drag.box.width, drag.dy / drag.box.height), rotate));
  };
  return (
    <Box
      data-testid="esign-pin"
      data-kind={pin.kind}
      data-signer={signer?.email}
      data-x={pin.x}
      data-y={pin.y}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={() => setDrag(null)}
      onClick={(e) => e.stopPropagation()}
      sx={{
        position: 'absolute',
        left: `${shown.x * 100}%`,
        top: `${shown.y * 100}%`,
        width: `${shown.width * 100}%`,
        height: `${shown.height * 100}%`,
        transform: drag ? `translate(${drag.dx}px, ${drag.dy}px)` : undefined,
        border: `2px solid ${color}`,
        bgcolor: `${color}33`,
        borderRadius: 1,
        cursor: editable ? 'move' : 'default',
        touchAction: editable ? 'none' : 'auto',
        display: 'flex',
        alignItems: 'center',
        overflow: 'hidden',
        px: 0.5,
        zIndex: drag ? 3 : 2,
      }}
    >
      <Typography variant="caption" noWrap sx={{ color, fontWeight: 600, flex: 1, userSelect: 'none' }}>
        {t(`esign.pins.${pin.kind}`)} · {signer?.name}
      </Typography>
      {editable && onRemove && (
        <Box
          component="button"
          type="button"
          aria-label={t('esign.prepare.removePin')}
          data-testid="esign-pin-remove"
          onPointerDown={(e) => e.stopPropagation()}
          onClick={(e) => {
            e.stopPropagation();
            onRemove();
          }}
          sx={{ border: 0, bgcolor: 'transparent', p: 0, color, cursor: 'pointer', display: 'flex' }}
        >
          <CloseOutlined fontSize="small" />
        </Box>
      )}
    </Box>
  );
};

/**
 * The pages of one document, drawn by pdf.js, with the package's fields on them in their signers'
 * colours. A click (or a tap on a phone) places a field of the chosen signer and kind where it
 * lands; a field is dragged to move it. Positions go to the API as fractions of the page.
 */
const PinBoard = ({ userId, packageId, entry, pins, signers, placing, onPlace, onMove, onRemove }: PinBoardProps) => {
  const { t } = useTranslation();
  const { ref, width } = useWidth();
  const [failed, setFailed] = useState(false);
  const [rotations, setRotations] = useState<Record<number, number>>({});
  const options = useMemo(() => ({ ...PDF_OPTIONS }), []);
  const pageWidth = Math.max(120, Math.min(PAGE_WIDTH, width));
  const editable = Boolean(onPlace);
  const bySigner = new Map(signers.map((s) => [s.id, s]));
  const place = (e: React.MouseEvent<HTMLDivElement>, pageNumber: number) => {
    if (!placing || !onPlace) return;
    const rotate = rotations[pageNumber] ?? 0;
    const at = pageFraction(e.clientX, e.clientY, e.currentTarget.getBoundingClientRect());
    onPlace({ entryId: entry.id, signerId: placing.signerId, kind: placing.kind, page: pageNumber, ...storedRect(pinAt(at, placing.kind), rotate) });
  };
  if (failed) return <Alert severity="error">{t('esign.prepare.pdfFailed')}</Alert>;
  return (
    <Box ref={ref} sx={{ width: '100%', minWidth: 0 }} data-testid="esign-board" data-entry={entry.name}>
      {width > 0 && (
        <Document
          file={entryContentUrl(userId, packageId, entry.id)}
          options={options}
          onLoadError={() => setFailed(true)}
          onSourceError={() => setFailed(true)}
          loading={<CircularProgress aria-label={t('common.loading')} />}
        >
          {Array.from({ length: Math.min(entry.pageCount, MAX_PAGES) }, (_, i) => i + 1).map((pageNumber) => (
            <Box key={pageNumber} sx={{ mb: 2 }}>
              <Typography variant="caption" color="text.secondary">
                {t('esign.prepare.page', { page: pageNumber, total: entry.pageCount })}
              </Typography>
              <Box
                data-testid="esign-page"
                data-page={pageNumber}
                onClick={(e) => place(e, pageNumber)}
                sx={{ position: 'relative', width: 'fit-content', maxWidth: '100%', boxShadow: 2, cursor: editable && placing ? 'crosshair' : 'default' }}
              >
                <Page
                  pageNumber={pageNumber}
                  width={pageWidth}
                  renderTextLayer={false}
                  renderAnnotationLayer={false}
                  onLoadSuccess={(page) => setRotations((r) => (r[pageNumber] === page.rotate ? r : { ...r, [pageNumber]: page.rotate }))}
                  loading={<CircularProgress aria-label={t('common.loading')} />}
                />
                {pins
                  .filter((p) => p.entryId === entry.id && p.page === pageNumber)
                  .map((pin) => (
                    <PinBox
                      key={pin.id}
                      pin={pin}
                      signer={bySigner.get(pin.signerId)}
                      rotate={rotations[pageNumber] ?? 0}
                      editable={editable}
                      onMove={onMove && ((to) => onMove(pin, to))}
                      onRemove={onRemove && (() => onRemove(pin))}
                    />
                  ))}
              </Box>
            </Box>
          ))}
        </Document>
      )}
    </Box>
  );
};

export default PinBoard;
