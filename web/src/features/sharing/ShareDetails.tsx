import ArrowBack from '@mui/icons-material/ArrowBack';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate } from 'react-router';
import { toApiError, type NormalisedError } from '../../api/errors';
import { ErrorAlert } from '../../components/ErrorAlert';
import { formatDateTime, localeTag } from '../../components/i18nHelpers';
import { formatBytes } from '../files/format';
import { sharingApi } from './sharing.api';
import type { AccessLogEntry, Share } from './sharing.types';
import { ShareContents } from './ShareContents';
import { CopyableLink } from './ShareDialog';
import { ShareEditDialog } from './ShareEditDialog';
import { deviceWords } from './share-sender';
import { shareState } from './share-status';

type Confirm = 'revoke' | 'delete' | null;

/** Below the `sm` breakpoint (phones) the access log's address and browser sit under its time. */
const WIDE = { display: { xs: 'none', sm: 'table-cell' } } as const;

const Fact = ({ label, value, testId }: { label: string; value: string; testId?: string }) => (
  <Box sx={{ minWidth: 160 }}>
    <Typography variant="caption" color="text.secondary">
      {label}
    </Typography>
    <Typography variant="body2" data-testid={testId}>
      {value}
    </Typography>
  </Box>
);

/** One of the owner's shares: its link and facts, edit, revoke, delete, resend, recipients and the access log. */
export const ShareDetails = ({ shareId }: { shareId: string }) => {
  const { t, i18n } = useTranslation();
  const tag = localeTag(i18n.language);
  const navigate = useNavigate();
  const [share, setShare] = useState<Share | null>(null);
  const [log, setLog] = useState<AccessLogEntry[] | null>(null);
  const [error, setError] = useState<NormalisedError | null>(null);
  const [actionError, setActionError] = useState<NormalisedError | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [editing, setEditing] = useState(false);
  const [confirm, setConfirm] = useState<Confirm>(null);

  const load = useCallback(() => {
    setError(null);
    sharingApi
      .get(shareId)
      .then(setShare)
      .catch((e: unknown) => setError(toApiError(e).toJSON()));
    sharingApi
      .accessLog(shareId)
      .then(setLog)
      .catch(() => setLog([]));
  }, [shareId]);
  useEffect(load, [load]);

  const act = (run: () => Promise<unknown>, done?: string) => {
    setBusy(true);
    setActionError(null);
    setNotice(null);
    run()
      .then((answer) => {
        if (answer && typeof answer === 'object' && 'recipients' in answer) setShare(answer as Share);
        else load();
        if (done) setNotice(done);
      })
      .catch((e: unknown) => setActionError(toApiError(e).toJSON()))
      .finally(() => setBusy(false));
  };

  if (error) return <ErrorAlert error={error} testId="share-details-error" />;
  if (!share) return <LinearProgress aria-label={t('common.loading')} />;
  const status = shareState(share, new Date());
  const isPrivate = share.kind === 'private';
  const live = status !== 'revoked';
  const date = (iso: string | null | undefined) => (iso ? formatDateTime(iso, i18n.language) : '—');

  return (
    <Box data-testid="share-details" data-share-id={share.id}>
      <Button component={RouterLink} to="/files/shares" startIcon={<ArrowBack />} sx={{ mb: 1 }} data-testid="shares-back">
        {t('sharing.list.title')}
      </Button>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 2, flexWrap: 'wrap' }}>
        <Typography variant="h5" component="h1" sx={{ flex: 1 }}>
          {share.title}
        </Typography>
        <Chip size="small" label={t(`sharing.kind.${share.kind}`)} />
        <Chip size="small" color={status === 'active' ? 'success' : 'default'} label={t(`sharing.state.${status}`)} data-testid="share-state" />
      </Stack>
      {share.description && <Typography sx={{ mb: 2, whiteSpace: 'pre-wrap' }}>{share.description}</Typography>}
      <CopyableLink url={share.url} />
      <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 2, my: 2 }}>
        <Fact label={t('sharing.columns.opened')} value={String(share.openedCount ?? 0)} testId="share-opened-count" />
        <Fact label={t('sharing.columns.deliveredOn')} value={date(share.deliveredOn)} testId="share-delivered-on" />
        <Fact label={t('sharing.columns.expires')} value={share.expiresAt ? date(share.expiresAt) : t('sharing.page.noExpiry')} />
        <Fact label={t('sharing.columns.created')} value={date(share.createdAt)} />
        <Fact label={t('sharing.columns.size')} value={typeof share.totalSize === 'number' ? formatBytes(share.totalSize, tag) : '—'} />
        <Fact label={t('sharing.fields.downloadable')} value={share.downloadable ? t('sharing.yes') : t('sharing.viewOnly')} />
        <Fact label={t('sharing.fields.password')} value={share.hasPassword ? t('sharing.yes') : t('sharing.no')} />
        <Fact label={t('sharing.fields.requireLogin')} value={share.requireLogin ? t('sharing.yes') : t('sharing.no')} />
        {share.revokedAt && <Fact label={t('sharing.state.revoked')} value={date(share.revokedAt)} />}
      </Stack>
      {share.items && share.items.length > 0 && (
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }} data-testid="share-items">
          {t('sharing.details.items', { names: share.items.map((i) => i.name).join(', ') })}
        </Typography>
      )}

      <Stack direction="row" spacing={1} sx={{ mb: 2, flexWrap: 'wrap' }}>
        {live && (
          <Button variant="outlined" onClick={() => setEditing(true)} disabled={busy} data-testid="share-edit">
            {t('sharing.actions.edit')}
          </Button>
        )}
        {live && isPrivate && (
          <Button
            variant="outlined"
            onClick={() => act(() => sharingApi.resend(share.id), t('sharing.details.resent'))}
            disabled={busy}
            data-testid="share-resend"
          >
            {t('sharing.actions.resend')}
          </Button>
        )}
        {live && (
          <Button variant="outlined" color="warning" onClick={() => setConfirm('revoke')} disabled={busy} data-testid="share-revoke">
            {t('sharing.actions.revoke')}
          </Button>
        )}
        {isPrivate && (
          <Button variant="outlined" color="error" onClick={() => setConfirm('delete')} disabled={busy} data-testid="share-delete">
            {t('sharing.actions.delete')}
          </Button>
        )}
      </Stack>
      {busy && <LinearProgress aria-label={t('common.loading')} />}
      {notice && (
        <Alert severity="success" data-testid="share-notice" onClose={() => setNotice(null)}>
          {notice}
        </Alert>
      )}
      <ErrorAlert error={actionError} testId="share-action-error" />

      {isPrivate && (
        <>
          <Typography variant="h6" component="h2" sx={{ mt: 3 }}>
            {t('sharing.details.recipients')}
          </Typography>
          <Paper variant="outlined">
            <Table size="small" data-testid="share-recipients">
              <TableHead>
                <TableRow>
                  <TableCell>{t('sharing.access.email')}</TableCell>
                  <TableCell>{t('sharing.details.openedAt')}</TableCell>
                  <TableCell>{t('sharing.details.access')}</TableCell>
                  <TableCell />
                </TableRow>
              </TableHead>
              <TableBody>
                {(share.recipients ?? []).map((r) => (
                  <TableRow key={r.email} data-testid="recipient-row" data-email={r.email}>
                    <TableCell>{r.email}</TableCell>
                    <TableCell>{date(r.openedAt)}</TableCell>
                    <TableCell>{r.blocked ? t('sharing.details.blocked') : t('sharing.details.allowed')}</TableCell>
                    <TableCell align="right">
                      {live && (
                        <Button
                          size="small"
                          onClick={() => act(() => (r.blocked ? sharingApi.unblock(share.id, r.email) : sharingApi.block(share.id, r.email)))}
                          disabled={busy}
                          data-testid={r.blocked ? 'recipient-unblock' : 'recipient-block'}
                        >
                          {r.blocked ? t('sharing.actions.unblock') : t('sharing.actions.block')}
                        </Button>
                      )}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </Paper>
        </>
      )}

      <ShareContents shareId={share.id} title={share.title} />

      <Typography variant="h6" component="h2" sx={{ mt: 3 }}>
        {t('sharing.details.accessLog')}
      </Typography>
      <Paper variant="outlined">
        {log === null ? (
          <LinearProgress aria-label={t('common.loading')} />
        ) : log.length === 0 ? (
          <Typography sx={{ p: 2 }} color="text.secondary" data-testid="access-log-empty">
            {t('sharing.details.noAccess')}
          </Typography>
        ) : (
          <Table size="small" data-testid="access-log">
            <TableHead>
              <TableRow>
                <TableCell>{t('sharing.log.time')}</TableCell>
                <TableCell>{t('sharing.log.action')}</TableCell>
                <TableCell>{t('sharing.access.email')}</TableCell>
                <TableCell sx={WIDE}>{t('sharing.log.ip')}</TableCell>
                <TableCell sx={WIDE}>{t('sharing.log.userAgent')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {log.map((entry, i) => {
                const device = deviceWords(entry.userAgent, t);
                return (
                  // biome-ignore lint/suspicious/noArrayIndexKey: a read-only list, replaced whole when it changes
                  <TableRow key={`${entry.time}-${i}`} data-testid="access-log-row" data-action={entry.action}>
                    <TableCell>
                      {date(entry.time)}
                      {/* a phone has no room for the address and browser columns: they sit under the time */}
                      <Typography
                        variant="caption"
                        color="text.secondary"
                        component="div"
                        sx={{ display: { xs: 'block', sm: 'none' } }}
                        data-testid="access-log-device-below"
                      >
                        {[device, entry.ip].filter(Boolean).join(' · ')}
                      </Typography>
                    </TableCell>
                    <TableCell>{t(`sharing.log.actions.${entry.action}`, { defaultValue: entry.action })}</TableCell>
                    <TableCell sx={{ overflowWrap: 'anywhere' }}>{entry.recipientEmail ?? '—'}</TableCell>
                    <TableCell sx={WIDE}>{entry.ip ?? '—'}</TableCell>
                    {/* the raw user agent stays at hand as the cell's title */}
                    <TableCell sx={WIDE} title={entry.userAgent ?? ''} data-testid="access-log-device">
                      {device}
                    </TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        )}
      </Paper>

      <ShareEditDialog
        share={editing ? share : null}
        onClose={() => setEditing(false)}
        onSaved={(s) => {
          setShare(s);
          setEditing(false);
        }}
      />
      <Dialog open={confirm !== null} onClose={() => setConfirm(null)} data-testid="share-confirm-dialog">
        <DialogTitle>{confirm === 'delete' ? t('sharing.confirm.deleteTitle') : t('sharing.confirm.revokeTitle')}</DialogTitle>
        <DialogContent>
          <DialogContentText>{confirm === 'delete' ? t('sharing.confirm.deleteBody') : t('sharing.confirm.revokeBody')}</DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setConfirm(null)}>{t('common.cancel')}</Button>
          <Button
            color="error"
            variant="contained"
            data-testid="share-confirm"
            onClick={() => {
              const what = confirm;
              setConfirm(null);
              if (what === 'revoke') act(() => sharingApi.revoke(share.id));
              if (what === 'delete') {
                setBusy(true);
                sharingApi
                  .remove(share.id)
                  .then(() => void navigate('/files/shares'))
                  .catch((e: unknown) => setActionError(toApiError(e).toJSON()))
                  .finally(() => setBusy(false));
              }
            }}
          >
            {confirm === 'delete' ? t('sharing.actions.delete') : t('sharing.actions.revoke')}
          </Button>
        </DialogActions>
      </Dialog>
    </Box>
  );
};
