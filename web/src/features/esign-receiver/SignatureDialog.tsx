import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useEffect, useRef, useState, type PointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { Signature } from './esign-receiver.api';
import { DRAWN_SIGNATURE_MAX, SCRIPT_FONT, TYPED_SIGNATURE_MAX } from './signature-text';

/** The drawing surface in canvas pixels (3:1, the shape of a signature field); shown as wide as the dialog allows. */
const CANVAS_WIDTH = 600;
const CANVAS_HEIGHT = 200;

/**
 * A signature drawn with a finger, a pen or a mouse (pointer events, so touch works the same),
 * answered as a PNG data URL once at least one stroke is drawn.
 */
const DrawPad = ({ onChange }: { onChange: (image: string | null) => void }) => {
  const { t } = useTranslation();
  const canvas = useRef<HTMLCanvasElement>(null);
  const last = useRef<{ x: number; y: number } | null>(null);

  const pointOf = (event: PointerEvent<HTMLCanvasElement>) => {
    const rect = event.currentTarget.getBoundingClientRect();
    return { x: ((event.clientX - rect.left) / rect.width) * CANVAS_WIDTH, y: ((event.clientY - rect.top) / rect.height) * CANVAS_HEIGHT };
  };
  const context = () => {
    const ctx = canvas.current?.getContext('2d');
    if (!ctx) return null;
    ctx.lineWidth = 3;
    ctx.lineCap = 'round';
    ctx.lineJoin = 'round';
    ctx.strokeStyle = '#0d0d33';
    return ctx;
  };

  const down = (event: PointerEvent<HTMLCanvasElement>) => {
    event.preventDefault();
    event.currentTarget.setPointerCapture(event.pointerId);
    const p = pointOf(event);
    last.current = p;
    const ctx = context();
    if (!ctx) return;
    // a tap is a dot
    ctx.beginPath();
    ctx.arc(p.x, p.y, 1.5, 0, Math.PI * 2);
    ctx.fillStyle = '#0d0d33';
    ctx.fill();
  };
  const move = (event: PointerEvent<HTMLCanvasElement>) => {
    if (!last.current) return;
    event.preventDefault();
    const p = pointOf(event);
    const ctx = context();
    if (!ctx) return;
    ctx.beginPath();
    ctx.moveTo(last.current.x, last.current.y);
    ctx.lineTo(p.x, p.y);
    ctx.stroke();
    last.current = p;
  };
  const up = () => {
    if (!last.current) return;
    last.current = null;
    onChange(canvas.current?.toDataURL('image/png') ?? null);
  };
  const clear = () => {
    const ctx = canvas.current?.getContext('2d');
    ctx?.clearRect(0, 0, CANVAS_WIDTH, CANVAS_HEIGHT);
    onChange(null);
  };

  return (
    <Box>
      <Box
        component="canvas"
        ref={canvas}
        width={CANVAS_WIDTH}
        height={CANVAS_HEIGHT}
        data-testid="esign-draw-pad"
        aria-label={t('esignReceiver.signature.drawHere')}
        onPointerDown={down}
        onPointerMove={move}
        onPointerUp={up}
        onPointerCancel={up}
        sx={{
          display: 'block',
          width: '100%',
          aspectRatio: `${CANVAS_WIDTH} / ${CANVAS_HEIGHT}`,
          border: 1,
          borderColor: 'divider',
          borderRadius: 1,
          bgcolor: 'common.white',
          touchAction: 'none',
          cursor: 'crosshair',
        }}
      />
      <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', mt: 1, gap: 1 }}>
        <Typography variant="caption" color="text.secondary">
          {t('esignReceiver.signature.drawHint')}
        </Typography>
        <Button size="small" onClick={clear} data-testid="esign-draw-clear">
          {t('esignReceiver.signature.clear')}
        </Button>
      </Box>
    </Box>
  );
};

/**
 * Adopting the signature the signer's signature and initials fields show: their name typed
 * (shown in the script face the sealed document uses) or drawn.
 */
export const SignatureDialog = ({
  open,
  defaultName,
  onClose,
  onAdopt,
}: {
  open: boolean;
  defaultName: string;
  onClose: () => void;
  onAdopt: (signature: Signature) => void;
}) => {
  const { t } = useTranslation();
  const [mode, setMode] = useState<'typed' | 'drawn'>('typed');
  const [text, setText] = useState(defaultName);
  const [image, setImage] = useState<string | null>(null);

  useEffect(() => {
    if (open) {
      setText(defaultName);
      setImage(null);
    }
  }, [open, defaultName]);

  const typed = text.trim();
  const ready = mode === 'typed' ? typed.length > 0 && typed.length <= TYPED_SIGNATURE_MAX : image !== null && image.length <= DRAWN_SIGNATURE_MAX;
  const adopt = () => {
    if (!ready) return;
    onAdopt(mode === 'typed' ? { type: 'typed', text: typed } : { type: 'drawn', image: image! });
  };

  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" data-testid="esign-signature-dialog">
      <DialogTitle>{t('esignReceiver.signature.title')}</DialogTitle>
      <DialogContent>
        <Tabs value={mode} onChange={(_, v: 'typed' | 'drawn') => setMode(v)} sx={{ mb: 2 }}>
          <Tab value="typed" label={t('esignReceiver.signature.type')} data-testid="esign-mode-typed" />
          <Tab value="drawn" label={t('esignReceiver.signature.draw')} data-testid="esign-mode-drawn" />
        </Tabs>
        {mode === 'typed' ? (
          <Box>
            <TextField
              fullWidth
              label={t('esignReceiver.signature.name')}
              value={text}
              onChange={(e) => setText(e.target.value)}
              slotProps={{ htmlInput: { maxLength: TYPED_SIGNATURE_MAX, 'data-testid': 'esign-typed-input' } }}
              error={typed.length === 0}
              helperText={typed.length === 0 ? t('esignReceiver.signature.nameRequired') : ' '}
            />
            <Box
              data-testid="esign-typed-preview"
              sx={{
                mt: 1,
                p: 2,
                minHeight: 72,
                border: 1,
                borderColor: 'divider',
                borderRadius: 1,
                fontFamily: SCRIPT_FONT,
                fontStyle: 'italic',
                fontSize: 32,
                overflowWrap: 'anywhere',
                bgcolor: 'common.white',
                color: '#0d0d33',
              }}
            >
              {typed}
            </Box>
          </Box>
        ) : (
          <DrawPad onChange={setImage} />
        )}
        <Typography variant="body2" color="text.secondary" sx={{ mt: 2 }}>
          {t('esignReceiver.signature.consent')}
        </Typography>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common.cancel')}</Button>
        <Button variant="contained" onClick={adopt} disabled={!ready} data-testid="esign-adopt">
          {t('esignReceiver.signature.adopt')}
        </Button>
      </DialogActions>
    </Dialog>
  );
};
