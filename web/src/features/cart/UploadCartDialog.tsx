import CloseOutlined from '@mui/icons-material/CloseOutlined';
import ContentCopyOutlined from '@mui/icons-material/ContentCopyOutlined';
import UploadFileOutlined from '@mui/icons-material/UploadFileOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useSelector } from '@xstate/react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { createActor, fromPromise } from 'xstate';
import { toApiError, type NormalisedError } from '../../api/errors';
import { ErrorAlert } from '../../components/ErrorAlert';
import { localeTag } from '../../components/i18nHelpers';
import { filesApi } from '../files/files.api';
import { formatBytes } from '../files/format';
import { uploadQueueMachine, UNFINISHED } from '../files/upload-queue.machine';
import { tusUploadWorker } from '../files/uploader';
import { cartApi, type CartShareFields } from './cart.api';
import { cartFolderStamp, createCartFolder, warnBeforeUnload } from './cart-folder';
import { shareBlocked } from './share-blocked';
import { uploadCartMachine } from './upload-cart.machine';

const cartMachine = uploadCartMachine.provide({
  actors: {
    open: fromPromise(async () => ({ id: (await cartApi.open()).id })),
    add: fromPromise(({ input }: { input: { cartId: string; fileIds: string[] } }) => cartApi.add(input.cartId, input.fileIds)),
    remove: fromPromise(({ input }: { input: { cartId: string; fileId: string } }) => cartApi.remove(input.cartId, input.fileId)),
    load: fromPromise(async ({ input }: { input: { cartId: string } }) => {
      const [entries, cost] = await Promise.all([cartApi.entries(input.cartId), cartApi.cost(input.cartId)]);
      return { entries, cost };
    }),
    share: fromPromise(({ input }: { input: { cartId: string; fields: CartShareFields } }) => cartApi.share(input.cartId, input.fields)),
  },
});
// this panel offers no cancel, so no upload is ever dropped half-way by it
const cartUploads = uploadQueueMachine.provide({ actors: { uploadFile: tusUploadWorker } });

/** One cart and its own upload queue, for as long as the dialog is open. */
const useCart = (userId: string, storageId: string) => {
  const actors = useMemo(() => {
    const cart = createActor(cartMachine).start();
    const uploads = createActor(cartUploads, { input: {} }).start();
    // a file whose upload is done moves to the cart (spec §4)
    uploads.on('saved', (e) => e.entryId && cart.send({ type: 'SAVED', fileId: e.entryId }));
    return { cart, uploads };
  }, [userId, storageId]);
  useEffect(
    () => () => {
      actors.uploads.stop();
      actors.cart.stop();
    },
    [actors],
  );
  return actors;
};

/**
 * The cart's own folder in the online storage's root ("Shared <date time>", the next free name),
 * made when the first files are chosen and used for every later one.
 */
const useCartFolder = (userId: string, storageId: string, baseName: () => string) => {
  const pending = useRef<Promise<{ id: string; name: string }> | null>(null);
  const [name, setName] = useState<string | null>(null);
  const folder = useCallback(() => {
    if (!pending.current) {
      const made = createCartFolder(baseName(), (n) => filesApi.createFolder(userId, storageId, null, n));
      pending.current = made;
      made.then(
        (f) => setName(f.name),
        // a refused folder is asked for again with the next files
        () => (pending.current = null),
      );
    }
    return pending.current;
  }, [userId, storageId, baseName]);
  return { folder, name };
};

/**
 * The upload cart (spec §2): files chosen here upload into a folder of their own ("Shared <date
 * time>") in the online storage, each joins
 * the cart once saved, the cart says what sharing them would count, and Share makes them one share.
 */
const UploadCart = ({ userId, storageId, onClose }: { userId: string; storageId: string; onClose: () => void }) => {
  const { t, i18n } = useTranslation();
  const tag = localeTag(i18n.language);
  const { cart, uploads } = useCart(userId, storageId);
  const baseName = useCallback(() => t('cart.folderName', { date: cartFolderStamp(new Date()) }), [t]);
  const cartFolder = useCartFolder(userId, storageId, baseName);
  const [folderError, setFolderError] = useState<NormalisedError | null>(null);
  const [preparing, setPreparing] = useState(false);
  const state = useSelector(cart, (s) => s);
  const items = useSelector(uploads, (s) => s.context.items);
  const input = useRef<HTMLInputElement>(null);
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [password, setPassword] = useState('');
  const [downloadable, setDownloadable] = useState(true);
  const [copied, setCopied] = useState(false);
  const { entries, cost, error, share } = state.context;
  const uploading = preparing || items.some((i) => UNFINISHED.includes(i.status));
  const busy = !state.matches('idle');

  // leaving the page while uploads run asks first (they would stop half-way)
  useEffect(() => {
    if (!uploading) return;
    window.addEventListener('beforeunload', warnBeforeUnload);
    return () => window.removeEventListener('beforeunload', warnBeforeUnload);
  }, [uploading]);

  const upload = (files: File[]) => {
    setFolderError(null);
    setPreparing(true);
    cartFolder
      .folder()
      .then((f) => uploads.send({ type: 'ADD', files: files.map((file) => ({ file, name: file.name })), target: { userId, storageId, folderId: f.id } }))
      .catch((e: unknown) => setFolderError(toApiError(e).toJSON()))
      .finally(() => setPreparing(false));
  };

  if (share)
    return (
      <>
        <DialogContent>
          <Alert severity="success" sx={{ mb: 2 }} data-testid="cart-shared">
            {t('cart.shared', { title: share.title })}
          </Alert>
          <Box sx={{ display: 'flex', gap: 1 }}>
            <TextField
              fullWidth
              size="small"
              label={t('cart.link')}
              value={share.url}
              slotProps={{ htmlInput: { readOnly: true, 'data-testid': 'cart-share-link' } }}
            />
            <Button
              startIcon={<ContentCopyOutlined />}
              onClick={() =>
                void navigator.clipboard?.writeText(share.url).then(
                  () => setCopied(true),
                  () => undefined,
                )
              }
              data-testid="cart-copy-link"
            >
              {copied ? t('cart.copied') : t('cart.copy')}
            </Button>
          </Box>
        </DialogContent>
        <DialogActions>
          <Button variant="contained" onClick={onClose} data-testid="cart-done">
            {t('common.close')}
          </Button>
        </DialogActions>
      </>
    );

  const reasons = (cost?.reasons ?? []).filter((r) => r !== 'EMPTY_CART');
  const blocked = shareBlocked({ busy, uploading, title });
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        if (blocked) return;
        cart.send({
          type: 'SHARE',
          fields: { title: title.trim(), downloadable, ...(description.trim() ? { description: description.trim() } : {}), ...(password ? { password } : {}) },
        });
      }}
    >
      <DialogContent>
        {state.matches('broken') && <ErrorAlert error={error} testId="cart-error" />}
        <input
          ref={input}
          type="file"
          multiple
          hidden
          data-testid="cart-file-input"
          onChange={(e) => {
            const files = [...(e.target.files ?? [])];
            if (files.length) upload(files);
            e.target.value = '';
          }}
        />
        <Button
          startIcon={<UploadFileOutlined />}
          variant="outlined"
          onClick={() => input.current?.click()}
          disabled={state.matches('broken')}
          data-testid="cart-choose-files"
        >
          {t('cart.chooseFiles')}
        </Button>
        {cartFolder.name && (
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }} data-testid="cart-folder" data-name={cartFolder.name}>
            {t('cart.inFolder', { name: cartFolder.name })}
          </Typography>
        )}
        <ErrorAlert error={folderError} testId="cart-folder-error" />
        {items.filter((i) => i.status !== 'done').length > 0 && (
          <List dense data-testid="cart-uploads">
            {items
              .filter((i) => i.status !== 'done')
              .map((i) => (
                <ListItem key={i.id} data-testid="cart-upload" data-status={i.status}>
                  <ListItemText
                    primary={i.name}
                    secondary={
                      i.error ? (
                        i.error.message
                      ) : (
                        <LinearProgress variant="determinate" value={i.size ? Math.round((100 * i.bytesSent) / i.size) : 100} aria-label={i.name} />
                      )
                    }
                  />
                </ListItem>
              ))}
          </List>
        )}
        <List dense data-testid="cart-entries">
          {entries.map((e) => (
            <ListItem
              key={e.id}
              data-testid="cart-entry"
              data-state={e.state}
              secondaryAction={
                <IconButton
                  edge="end"
                  aria-label={t('cart.remove')}
                  disabled={busy}
                  onClick={() => cart.send({ type: 'REMOVE', fileId: e.id })}
                  data-testid="cart-entry-remove"
                >
                  <CloseOutlined fontSize="small" />
                </IconButton>
              }
            >
              <ListItemText primary={e.name ?? e.id} secondary={formatBytes(e.size, tag)} />
              {e.state !== 'ready' && <Chip size="small" color="warning" label={t(`cart.state.${e.state}`)} sx={{ mr: 4 }} />}
              {cost?.oversizedFileIds.includes(e.id) && (
                <Chip size="small" color="warning" label={t('cart.tooLarge')} sx={{ mr: 4 }} data-testid="cart-entry-too-large" />
              )}
            </ListItem>
          ))}
        </List>
        {cost && (
          <Typography variant="body2" color="text.secondary" data-testid="cart-cost">
            {t('cart.cost', { count: cost.filesCount, size: formatBytes(cost.totalSize, tag) })}{' '}
            {cost.sharesLimit === null ? t('cart.sharesUnlimited') : t('cart.sharesLeft', { left: cost.sharesLeft, limit: cost.sharesLimit })}
          </Typography>
        )}
        {/* a limited plan's shares: the way to more, as the share dialog offers it */}
        {cost && cost.sharesLimit !== null && (
          <Link component={RouterLink} to="/storages/plans" variant="body2" data-testid="cart-upgrade">
            {t('cart.upgrade')}
          </Link>
        )}
        {reasons.length > 0 && (
          <Alert severity="warning" sx={{ mt: 1 }} data-testid="cart-warnings">
            {reasons.map((r) => t(`cart.reasons.${r}`, { defaultValue: r, max: cost?.maxFileSize ? formatBytes(cost.maxFileSize, tag) : '' })).join(' ')}
          </Alert>
        )}
        <TextField
          fullWidth
          required
          margin="dense"
          label={t('cart.title')}
          value={title}
          onChange={(e) => setTitle(e.target.value)}
          slotProps={{ htmlInput: { 'data-testid': 'cart-title' } }}
        />
        <TextField fullWidth margin="dense" label={t('cart.description')} value={description} onChange={(e) => setDescription(e.target.value)} />
        <TextField
          fullWidth
          margin="dense"
          type="password"
          autoComplete="new-password"
          label={t('cart.password')}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          slotProps={{ htmlInput: { 'data-testid': 'cart-password' } }}
        />
        <FormControlLabel control={<Checkbox checked={downloadable} onChange={(e) => setDownloadable(e.target.checked)} />} label={t('cart.downloadable')} />
        {!state.matches('broken') && <ErrorAlert error={error} testId="cart-error" />}
        {busy && !state.matches('broken') && <LinearProgress aria-label={t('common.loading')} />}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common.cancel')}</Button>
        <Tooltip title={blocked ? t(blocked) : ''} enterTouchDelay={0} describeChild>
          {/* a disabled button gets no pointer events: the hint hangs on its wrapper */}
          <span data-testid="cart-share-hint" data-reason={blocked ?? ''}>
            <Button type="submit" variant="contained" disabled={blocked !== null} data-testid="cart-share">
              {t('cart.share')}
            </Button>
          </span>
        </Tooltip>
      </DialogActions>
    </form>
  );
};

export const UploadCartDialog = ({ open, onClose, userId, storageId }: { open: boolean; onClose: () => void; userId: string; storageId: string }) => {
  const { t } = useTranslation();
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" data-testid="upload-cart-dialog">
      <DialogTitle>{t('cart.heading')}</DialogTitle>
      {open && <UploadCart userId={userId} storageId={storageId} onClose={onClose} />}
    </Dialog>
  );
};
