import ChevronLeft from '@mui/icons-material/ChevronLeft';
import ChevronRight from '@mui/icons-material/ChevronRight';
import CloseOutlined from '@mui/icons-material/CloseOutlined';
import DownloadOutlined from '@mui/icons-material/DownloadOutlined';
import FullscreenOutlined from '@mui/icons-material/FullscreenOutlined';
import RotateRightOutlined from '@mui/icons-material/RotateRightOutlined';
import ZoomInOutlined from '@mui/icons-material/ZoomInOutlined';
import ZoomOutOutlined from '@mui/icons-material/ZoomOutOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { lazy, Suspense, useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { localeTag } from '../../components/i18nHelpers';
import { sourceUrl, type Item } from './files.api';
import { formatBytes, previewKind } from './format';

// pdf.js is large: loaded with the first PDF preview, not with the file browser
const PdfPreview = lazy(() => import('./PdfPreview'));

const ZOOM_STEPS = [0.25, 0.5, 0.75, 1, 1.5, 2, 3, 4] as const;
/** Text previews read at most this much of a file. */
const TEXT_PREVIEW_BYTES = 512 * 1024;

const TextPreview = ({ url }: { url: string }) => {
  const { t } = useTranslation();
  const [text, setText] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    const controller = new AbortController();
    setText(null);
    setFailed(false);
    fetch(url, { credentials: 'include', headers: { Range: `bytes=0-${TEXT_PREVIEW_BYTES - 1}` }, signal: controller.signal })
      .then(async (r) => {
        if (!r.ok) throw new Error(String(r.status));
        setText(await r.text());
      })
      .catch(() => !controller.signal.aborted && setFailed(true));
    return () => controller.abort();
  }, [url]);
  if (failed) return <Alert severity="error">{t('files.preview.failed')}</Alert>;
  if (text === null) return <CircularProgress aria-label={t('common.loading')} />;
  return (
    <Box
      component="pre"
      data-testid="preview-text"
      sx={{
        m: 0,
        p: 2,
        bgcolor: 'background.paper',
        color: 'text.primary',
        maxWidth: '100%',
        maxHeight: '100%',
        overflow: 'auto',
        whiteSpace: 'pre-wrap',
        wordBreak: 'break-word',
      }}
    >
      {text}
    </Box>
  );
};

/** A file no preview can show: what it is, and (unless the share is view only) a button to download it. */
const NoPreview = ({ item, onDownload }: { item: Item; onDownload?: () => void }) => {
  const { t, i18n } = useTranslation();
  return (
    <Box
      data-testid="preview-unsupported"
      sx={{
        bgcolor: 'background.paper',
        color: 'text.primary',
        borderRadius: 1,
        p: 3,
        width: 360,
        // clear of the previous and next buttons at either side
        maxWidth: 'calc(100vw - 112px)',
        display: 'flex',
        flexDirection: 'column',
        gap: 1.5,
        boxSizing: 'border-box',
      }}
    >
      <Typography variant="h6" component="p" sx={{ overflowWrap: 'anywhere' }} data-testid="preview-unsupported-name">
        {item.name}
      </Typography>
      <Box component="dl" sx={{ m: 0, display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: 2, rowGap: 0.5 }}>
        <Typography component="dt" variant="body2" color="text.secondary">
          {t('files.preview.type')}
        </Typography>
        <Typography component="dd" variant="body2" sx={{ m: 0, overflowWrap: 'anywhere' }} data-testid="preview-unsupported-type">
          {item.mime || t('files.preview.unknownType')}
        </Typography>
        <Typography component="dt" variant="body2" color="text.secondary">
          {t('files.preview.size')}
        </Typography>
        <Typography component="dd" variant="body2" sx={{ m: 0 }} data-testid="preview-unsupported-size">
          {formatBytes(item.size, localeTag(i18n.language))}
        </Typography>
      </Box>
      <Alert severity="info">{t('files.preview.unsupported')}</Alert>
      {onDownload && (
        <Button
          variant="contained"
          startIcon={<DownloadOutlined />}
          onClick={onDownload}
          data-testid="preview-unsupported-download"
          sx={{ alignSelf: 'flex-start' }}
        >
          {t('files.actions.download')}
        </Button>
      )}
    </Box>
  );
};

const Tool = ({
  title,
  onClick,
  children,
  testId,
  disabled,
}: {
  title: string;
  onClick: () => void;
  children: ReactNode;
  testId?: string;
  disabled?: boolean;
}) => (
  <Tooltip title={title}>
    <span>
      <IconButton color="inherit" aria-label={title} onClick={onClick} data-testid={testId} disabled={disabled}>
        {children}
      </IconButton>
    </span>
  </Tooltip>
);

/**
 * File preview (spec §2): images, text, PDF, audio and video, with zoom, rotate, fullscreen, next and
 * previous. Any other file opens here too, with its name, type and size and a download button: opening
 * a file never starts a download by itself.
 */
export const PreviewDialog = ({
  userId,
  items,
  index,
  onIndex,
  onClose,
  onDownload,
  urlOf,
  downloadable = true,
}: {
  userId: string;
  items: Item[];
  index: number | null;
  onIndex: (index: number) => void;
  onClose: () => void;
  onDownload: (item: Item) => void;
  /** Where a file's bytes are read from, when not the owner's own storage (a share link's file). */
  urlOf?: (item: Item) => string;
  /** False for a view-only share: no download button. */
  downloadable?: boolean;
}) => {
  const { t } = useTranslation();
  const [zoom, setZoom] = useState(1);
  const [rotation, setRotation] = useState(0);
  const stage = useRef<HTMLDivElement>(null);
  const item = index === null ? undefined : items[index];

  useEffect(() => {
    setZoom(1);
    setRotation(0);
  }, [item?.id]);

  const open = item !== undefined;
  const hasPrev = index !== null && index > 0;
  const hasNext = index !== null && index < items.length - 1;
  const prev = () => hasPrev && onIndex(index - 1);
  const next = () => hasNext && onIndex(index + 1);
  const zoomBy = (dir: 1 | -1) => {
    const at = ZOOM_STEPS.findIndex((z) => z >= zoom);
    const nextAt = Math.min(ZOOM_STEPS.length - 1, Math.max(0, (at === -1 ? ZOOM_STEPS.length - 1 : at) + dir));
    setZoom(ZOOM_STEPS[nextAt]!);
  };

  if (!item) return null;
  const kind = previewKind(item);
  const url = urlOf ? urlOf(item) : sourceUrl(userId, item);
  // a PDF is drawn at the zoom and rotation by pdf.js itself; everything else is scaled by CSS
  const transform =
    kind === 'pdf' || kind === null
      ? {}
      : { transform: `scale(${zoom}) rotate(${rotation}deg)`, transition: 'transform 120ms', transformOrigin: 'center center' };

  return (
    <Dialog
      open={open}
      onClose={onClose}
      fullScreen
      data-testid="preview-dialog"
      aria-label={item.name}
      onKeyDown={(e) => {
        if (e.key === 'ArrowLeft') prev();
        if (e.key === 'ArrowRight') next();
      }}
      slotProps={{ paper: { sx: { bgcolor: 'grey.900', color: 'common.white' } } }}
    >
      {/* on a phone the name keeps its own line (with the close button) and the tools wrap below it */}
      <Box sx={{ display: 'flex', alignItems: 'center', flexWrap: { xs: 'wrap', sm: 'nowrap' }, px: 1, gap: 0.5 }}>
        <Typography
          variant="subtitle1"
          noWrap
          title={item.name}
          sx={{ flex: { xs: '1 1 calc(100% - 56px)', sm: '1 1 0' }, minWidth: 0, px: 1 }}
          data-testid="preview-name"
        >
          {item.name}
        </Typography>
        <Box
          sx={{
            order: { xs: 3, sm: 2 },
            width: { xs: '100%', sm: 'auto' },
            display: 'flex',
            alignItems: 'center',
            justifyContent: { xs: 'center', sm: 'flex-end' },
            gap: 0.5,
            flexWrap: 'wrap',
          }}
        >
          <Typography variant="caption" sx={{ px: 1 }}>
            {t('files.preview.position', { current: (index ?? 0) + 1, total: items.length })}
          </Typography>
          {kind !== null && (
            <>
              <Tool title={t('files.preview.zoomOut')} onClick={() => zoomBy(-1)} testId="preview-zoom-out">
                <ZoomOutOutlined />
              </Tool>
              <Typography variant="caption" data-testid="preview-zoom" sx={{ minWidth: 40, textAlign: 'center' }}>
                {Math.round(zoom * 100)}%
              </Typography>
              <Tool title={t('files.preview.zoomIn')} onClick={() => zoomBy(1)} testId="preview-zoom-in">
                <ZoomInOutlined />
              </Tool>
              <Tool title={t('files.preview.rotate')} onClick={() => setRotation((r) => (r + 90) % 360)} testId="preview-rotate">
                <RotateRightOutlined />
              </Tool>
            </>
          )}
          <Tool
            title={t('files.preview.fullscreen')}
            onClick={() => void stage.current?.requestFullscreen?.().catch(() => undefined)}
            testId="preview-fullscreen"
          >
            <FullscreenOutlined />
          </Tool>
          {downloadable && (
            <Tool title={t('files.actions.download')} onClick={() => onDownload(item)} testId="preview-download">
              <DownloadOutlined />
            </Tool>
          )}
        </Box>
        <Box sx={{ order: { xs: 2, sm: 3 } }}>
          <Tool title={t('common.close')} onClick={onClose} testId="preview-close">
            <CloseOutlined />
          </Tool>
        </Box>
      </Box>
      <Box
        ref={stage}
        sx={{ flex: 1, position: 'relative', display: 'flex', alignItems: 'center', justifyContent: 'center', overflow: 'auto', bgcolor: 'grey.900' }}
      >
        <Box sx={{ position: 'absolute', left: 8, top: '50%', zIndex: 1 }}>
          <Tool title={t('files.preview.previous')} onClick={prev} disabled={!hasPrev} testId="preview-prev">
            <ChevronLeft fontSize="large" />
          </Tool>
        </Box>
        <Box sx={{ maxWidth: '100%', maxHeight: '100%', display: 'flex', alignItems: 'center', justifyContent: 'center', ...transform }}>
          {kind === 'image' && (
            <img src={url} alt={item.name} data-testid="preview-image" style={{ maxWidth: '90vw', maxHeight: '80vh', objectFit: 'contain' }} />
          )}
          {kind === 'text' && <TextPreview url={url} />}
          {kind === 'pdf' && (
            <Suspense fallback={<CircularProgress aria-label={t('common.loading')} />}>
              <PdfPreview url={url} zoom={zoom} rotation={rotation} />
            </Suspense>
          )}
          {/* biome-ignore lint/a11y/useMediaCaption: the user's own files come with no caption track */}
          {kind === 'audio' && <audio src={url} controls data-testid="preview-audio" aria-label={item.name} />}
          {/* biome-ignore lint/a11y/useMediaCaption: the user's own files come with no caption track */}
          {kind === 'video' && <video src={url} controls data-testid="preview-video" aria-label={item.name} style={{ maxWidth: '90vw', maxHeight: '80vh' }} />}
          {kind === null && <NoPreview item={item} onDownload={downloadable ? () => onDownload(item) : undefined} />}
        </Box>
        <Box sx={{ position: 'absolute', right: 8, top: '50%', zIndex: 1 }}>
          <Tool title={t('files.preview.next')} onClick={next} disabled={!hasNext} testId="preview-next">
            <ChevronRight fontSize="large" />
          </Tool>
        </Box>
      </Box>
    </Dialog>
  );
};
