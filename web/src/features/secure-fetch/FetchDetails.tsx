import ArrowBackOutlined from '@mui/icons-material/ArrowBackOutlined';
import DownloadOutlined from '@mui/icons-material/DownloadOutlined';
import PictureAsPdfOutlined from '@mui/icons-material/PictureAsPdfOutlined';
import VerifiedOutlined from '@mui/icons-material/VerifiedOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useMachine } from '@xstate/react';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate } from 'react-router';
import { fromPromise } from 'xstate';
import { toApiError, type NormalisedError } from '../../api/errors';
import { ErrorAlert } from '../../components/ErrorAlert';
import { formatDateTime, localeTag, translateError } from '../../components/i18nHelpers';
import { noticeStore } from '../../session/notices';
import { startBrowserDownload } from '../files/download';
import { formatBytes } from '../files/format';
import { IpfsPinsSection } from '../ipfs/IpfsPinsSection';
import { displayAxel, toUnits } from '../wallet/amounts';
import { useBalance } from '../wallet/balance.store';
import { CopyableLink } from './CreateFetchDialog';
import { fetchPayMachine, INSUFFICIENT_TO_PIN, shortOfTokens } from './fetch-pay.machine';
import { HASH_NAMES } from './hashing.core';
import { certificatePdfUrl, itemDownloadUrl, secureFetchApi, uploadPageUrl, type FetchItem, type SecureFetch } from './secure-fetch.api';
import { saveJson } from './save-json';
import { statusOf } from './status';

/** Columns a 390 px phone has no room for. */
const wideOnly = { display: { xs: 'none', sm: 'table-cell' } } as const;
const short = (hash: string | undefined | null) => (hash ? `${hash.slice(0, 12)}…` : '—');

/** Pay and pin of a fetch whose files arrived: the cost, the confirmed balance, the spec's refusal. */
const PaySection = ({ userId, fetch }: { userId: string; fetch: SecureFetch }) => {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const balance = useBalance();
  const [state, send] = useMachine(
    fetchPayMachine.provide({
      actors: { pay: fromPromise(({ input }) => secureFetchApi.pay(userId, input.fetchId)) },
      actions: {
        // Spec §4: the uploaded fetch publishes its payment and the owner returns to the list.
        paid: () => {
          balance.afterAction();
          noticeStore.push({ severity: 'success', key: 'secureFetch.pay.paid' });
          void navigate('/files/secure-fetch');
        },
      },
    }),
    { input: { fetchId: fetch.id, certificated: fetch.certificated } },
  );
  const { cost, error } = state.context;
  const lang = localeTag(i18n.language);
  const confirmed = balance.balance ? toUnits(balance.balance.confirmed) : null;
  const short = shortOfTokens(confirmed, fetch.certificated);
  return (
    <Paper variant="outlined" sx={{ p: 2 }} data-testid="fetch-pay">
      <Stack spacing={1}>
        <Typography variant="subtitle1">{t('secureFetch.pay.title')}</Typography>
        <Typography data-testid="fetch-pay-cost" data-cost={cost}>
          {t(fetch.certificated ? 'secureFetch.pay.costWithCertificate' : 'secureFetch.pay.cost', { cost: displayAxel(cost, lang) })}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {balance.balance ? t('secureFetch.pay.balance', { amount: displayAxel(balance.balance.confirmed, lang) }) : t('secureFetch.pay.balanceUnknown')}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {t('secureFetch.pay.collected')}
        </Typography>
        {short && !state.matches('failed') && (
          <Alert
            severity="warning"
            data-testid="fetch-pay-short"
            action={
              <Button color="inherit" size="small" component={RouterLink} to="/wallet/replenish" data-testid="fetch-pay-get-tokens">
                {t('secureFetch.pay.getTokens')}
              </Button>
            }
          >
            {t('secureFetch.pay.short', { balance: displayAxel(balance.balance?.confirmed, lang), cost: displayAxel(cost, lang) })}
          </Alert>
        )}
        {state.matches('failed') && error && (
          <Alert
            severity="error"
            data-testid="fetch-pay-error"
            data-error-code={error.code}
            action={
              error.code === INSUFFICIENT_TO_PIN ? (
                <Button color="inherit" size="small" component={RouterLink} to="/wallet/overview">
                  {t('secureFetch.pay.toWallet')}
                </Button>
              ) : undefined
            }
          >
            {translateError(t, i18n.language, error)}
          </Alert>
        )}
        <Box>
          {state.matches('failed') ? (
            <Button variant="contained" onClick={() => send({ type: 'RETRY' })} data-testid="fetch-pay-retry">
              {t('secureFetch.pay.retry')}
            </Button>
          ) : (
            <Button
              variant="contained"
              disabled={state.matches('paying') || short}
              onClick={() => send({ type: 'PAY', confirmed })}
              data-testid="fetch-pay-button"
            >
              {state.matches('paying') ? t('secureFetch.pay.paying') : t('secureFetch.pay.button', { cost: displayAxel(cost, lang) })}
            </Button>
          )}
        </Box>
      </Stack>
      <Dialog open={state.matches('confirming')} onClose={() => send({ type: 'CANCEL' })} data-testid="fetch-pay-confirm">
        <DialogTitle>{t('secureFetch.pay.confirmTitle')}</DialogTitle>
        <DialogContent>
          <DialogContentText>{t('secureFetch.pay.confirmText', { cost: displayAxel(cost, lang) })}</DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => send({ type: 'CANCEL' })}>{t('common.cancel')}</Button>
          <Button variant="contained" onClick={() => send({ type: 'CONFIRM' })} data-testid="fetch-pay-confirm-button">
            {t('secureFetch.pay.confirm')}
          </Button>
        </DialogActions>
      </Dialog>
    </Paper>
  );
};

/** The certificate of a paid fetch: its fields as the PDF shows them, the PDF and the JSON to verify with. */
const CertificateSection = ({ userId, fetch }: { userId: string; fetch: SecureFetch }) => {
  const { t, i18n } = useTranslation();
  const [certificate, setCertificate] = useState<Record<string, unknown> | null>(null);
  const [error, setError] = useState<NormalisedError | null>(null);
  const [open, setOpen] = useState(false);
  const load = async () => {
    try {
      const c = certificate ?? (await secureFetchApi.certificate(userId, fetch.id));
      setCertificate(c);
      setError(null);
      return c;
    } catch (e) {
      setError(toApiError(e).toJSON());
      return null;
    }
  };
  const files = (certificate?.files ?? []) as Array<Record<string, unknown>>;
  return (
    <Paper variant="outlined" sx={{ p: 2 }} data-testid="fetch-certificate">
      <Stack spacing={1}>
        <Typography variant="subtitle1">{t('secureFetch.certificate.title')}</Typography>
        <ErrorAlert error={error} testId="fetch-certificate-error" />
        <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', rowGap: 1 }}>
          <Button
            variant="outlined"
            startIcon={<VerifiedOutlined />}
            onClick={() => void load().then((c) => c && setOpen(true))}
            data-testid="fetch-certificate-view"
          >
            {t('secureFetch.certificate.view')}
          </Button>
          <Button
            variant="outlined"
            startIcon={<PictureAsPdfOutlined />}
            onClick={() => startBrowserDownload(certificatePdfUrl(userId, fetch.id), `certificate-${fetch.id}.pdf`)}
            data-testid="fetch-certificate-pdf"
          >
            {t('secureFetch.certificate.pdf')}
          </Button>
          <Button
            variant="outlined"
            startIcon={<DownloadOutlined />}
            onClick={() => void load().then((c) => c && saveJson(c, `certificate-${fetch.id}.json`))}
            data-testid="fetch-certificate-json"
          >
            {t('secureFetch.certificate.json')}
          </Button>
          <Button component={RouterLink} to="/verify-certificate">
            {t('secureFetch.certificate.verify')}
          </Button>
        </Stack>
      </Stack>
      <Dialog open={open && certificate !== null} onClose={() => setOpen(false)} fullWidth maxWidth="md" data-testid="fetch-certificate-dialog">
        <DialogTitle>{t('secureFetch.certificate.title')}</DialogTitle>
        <DialogContent>
          <Stack spacing={1}>
            <Typography variant="body2">{t('secureFetch.certificate.id', { id: String(certificate?.certificateId ?? '—') })}</Typography>
            <Typography variant="body2">
              {t('secureFetch.certificate.issuedAt', {
                date: typeof certificate?.issuedAt === 'string' ? formatDateTime(certificate.issuedAt, i18n.language) : '—',
              })}
            </Typography>
            <Typography variant="body2" sx={{ wordBreak: 'break-all' }} data-testid="fetch-certificate-tx">
              {t('secureFetch.certificate.txId', { txId: String(certificate?.txId ?? '—') })}
            </Typography>
            <Typography variant="body2" sx={{ wordBreak: 'break-all' }}>
              {t('secureFetch.certificate.fingerprint', { sha256: String(certificate?.canonicalSha256 ?? '—') })}
            </Typography>
            {files.map((f) => (
              <Paper key={String(f.name)} variant="outlined" sx={{ p: 1 }}>
                <Typography variant="subtitle2">{String(f.name)}</Typography>
                <Typography variant="caption" component="div">
                  {t('secureFetch.certificate.fileData', {
                    size: formatBytes(Number(f.size), localeTag(i18n.language)),
                    created: typeof f.created === 'string' ? formatDateTime(f.created, i18n.language) : '—',
                    modified: typeof f.modified === 'string' ? formatDateTime(f.modified, i18n.language) : '—',
                    lastOpened: typeof f.lastOpened === 'string' ? formatDateTime(f.lastOpened, i18n.language) : '—',
                  })}
                </Typography>
                {HASH_NAMES.filter((h) => typeof f[h] === 'string').map((h) => (
                  <Typography key={h} variant="caption" component="div" sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>
                    {t(`secureFetch.hashes.${h}`)}: {String(f[h])}
                  </Typography>
                ))}
              </Paper>
            ))}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)}>{t('common.close')}</Button>
        </DialogActions>
      </Dialog>
    </Paper>
  );
};

/** One Secure Fetch of the owner, files/secure-fetch/:shareId: its link, items, pay and pin, certificate and revoke. */
export const FetchDetails = ({ userId, fetchId }: { userId: string; fetchId: string }) => {
  const { t, i18n } = useTranslation();
  const [fetch, setFetch] = useState<SecureFetch | null>(null);
  const [items, setItems] = useState<FetchItem[]>([]);
  const [error, setError] = useState<NormalisedError | null>(null);
  const [confirmRevoke, setConfirmRevoke] = useState(false);
  const [revoking, setRevoking] = useState(false);
  const reload = useCallback(async () => {
    try {
      const f = await secureFetchApi.get(userId, fetchId);
      setFetch(f);
      setItems(f.status === 'pending' ? [] : await secureFetchApi.items(userId, fetchId));
      setError(null);
    } catch (e) {
      setError(toApiError(e).toJSON());
    }
  }, [userId, fetchId]);
  useEffect(() => {
    void reload();
  }, [reload]);

  const revoke = async () => {
    setRevoking(true);
    try {
      await secureFetchApi.revoke(userId, fetchId);
      setConfirmRevoke(false);
      await reload();
    } catch (e) {
      setError(toApiError(e).toJSON());
    } finally {
      setRevoking(false);
    }
  };

  if (!fetch) {
    return error ? <ErrorAlert error={error} testId="fetch-details-error" /> : <CircularProgress aria-label={t('common.loading')} />;
  }
  const status = statusOf(fetch);
  const lang = localeTag(i18n.language);
  return (
    <Stack spacing={2} data-testid="fetch-details" data-status={fetch.status} data-paid={String(fetch.paid)}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
        <Tooltip title={t('common.back')}>
          <IconButton component={RouterLink} to="/files/secure-fetch" aria-label={t('common.back')} data-testid="fetch-back">
            <ArrowBackOutlined />
          </IconButton>
        </Tooltip>
        <Typography variant="h6" component="h2" sx={{ flex: 1, whiteSpace: 'pre-wrap' }} data-testid="fetch-details-note">
          {fetch.note}
        </Typography>
        <Chip label={t(`secureFetch.status.${status}`)} data-testid="fetch-details-status" />
      </Box>
      <ErrorAlert error={error} testId="fetch-details-error" />
      <Typography variant="body2" color="text.secondary">
        {t('secureFetch.details.summary', {
          created: formatDateTime(fetch.createdAt, i18n.language),
          expires: fetch.expiresAt ? formatDateTime(fetch.expiresAt, i18n.language) : t('secureFetch.untilUsed'),
        })}
        {' · '}
        {fetch.certificated ? t('secureFetch.details.withCertificate') : t('secureFetch.details.withoutCertificate')}
        {fetch.includeMetadata && ` · ${t('secureFetch.details.withMetadata')}`}
      </Typography>
      {status === 'waiting' && (
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <CopyableLink url={uploadPageUrl(fetch.shareLinkId)} testId="fetch-details-link" />
          <Button color="error" variant="outlined" onClick={() => setConfirmRevoke(true)} data-testid="fetch-revoke">
            {t('secureFetch.revoke.button')}
          </Button>
        </Stack>
      )}
      {status === 'uploaded' && <PaySection userId={userId} fetch={fetch} />}
      {status === 'collected' && (
        <Alert severity="warning" data-testid="fetch-collected">
          {t('errors.SECURE_FETCH_COLLECTED')}
        </Alert>
      )}
      {fetch.metadata && Object.values(fetch.metadata).some((v) => v !== null && v !== '') && (
        <Paper variant="outlined" sx={{ p: 2 }} data-testid="fetch-details-metadata">
          <Typography variant="subtitle1">{t('secureFetch.metadata.title')}</Typography>
          {Object.entries(fetch.metadata)
            .filter(([, v]) => v !== null && v !== '')
            .map(([k, v]) => (
              <Typography key={k} variant="body2">
                {t(`secureFetch.metadata.${k}`)}: {k === 'copyrightTypeId' ? t(`secureFetch.copyrightTypes.${String(v)}`) : String(v)}
              </Typography>
            ))}
        </Paper>
      )}
      {items.length > 0 && (
        <Paper variant="outlined">
          <Table size="small" data-testid="fetch-items">
            <TableHead>
              <TableRow>
                <TableCell>{t('secureFetch.items.name')}</TableCell>
                <TableCell>{t('secureFetch.items.size')}</TableCell>
                <TableCell sx={wideOnly}>{t('secureFetch.hashes.md5')}</TableCell>
                <TableCell sx={wideOnly}>{t('secureFetch.hashes.sha1')}</TableCell>
                <TableCell />
              </TableRow>
            </TableHead>
            <TableBody>
              {items.map((item) => (
                <TableRow key={item.id} data-testid="fetch-item" data-name={item.name}>
                  <TableCell sx={{ wordBreak: 'break-word' }}>
                    {item.relpath ? `${item.relpath}/${item.name}` : item.name}
                    {/* on a phone the hashes go under the name instead of two more columns */}
                    <Typography variant="caption" component="div" sx={{ display: { xs: 'block', sm: 'none' }, fontFamily: 'monospace' }}>
                      {t('secureFetch.hashes.md5')} {short(item.md5)} · {t('secureFetch.hashes.sha1')} {short(item.sha1)}
                    </Typography>
                  </TableCell>
                  <TableCell>{formatBytes(item.size, lang)}</TableCell>
                  <TableCell sx={{ ...wideOnly, fontFamily: 'monospace' }} title={item.md5 ?? ''}>
                    {short(item.md5)}
                  </TableCell>
                  <TableCell sx={{ ...wideOnly, fontFamily: 'monospace' }} title={item.sha1 ?? ''}>
                    {short(item.sha1)}
                  </TableCell>
                  <TableCell align="right">
                    {fetch.paid && (
                      <Tooltip title={t('secureFetch.items.download')}>
                        <IconButton
                          aria-label={t('secureFetch.items.download')}
                          data-testid="fetch-item-download"
                          onClick={() => startBrowserDownload(itemDownloadUrl(userId, fetch.id, item.id), item.name)}
                        >
                          <DownloadOutlined fontSize="small" />
                        </IconButton>
                      </Tooltip>
                    )}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Paper>
      )}
      {fetch.paid && <IpfsPinsSection userId={userId} fetchId={fetch.id} names={Object.fromEntries(items.map((i) => [i.id, i.name]))} />}
      {fetch.certificated && fetch.paid && <CertificateSection userId={userId} fetch={fetch} />}
      <Dialog open={confirmRevoke} onClose={() => setConfirmRevoke(false)} data-testid="fetch-revoke-dialog">
        <DialogTitle>{t('secureFetch.revoke.title')}</DialogTitle>
        <DialogContent>
          <DialogContentText>{t('secureFetch.revoke.text')}</DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setConfirmRevoke(false)}>{t('common.cancel')}</Button>
          <Button color="error" variant="contained" disabled={revoking} onClick={() => void revoke()} data-testid="fetch-revoke-confirm">
            {t('secureFetch.revoke.confirm')}
          </Button>
        </DialogActions>
      </Dialog>
    </Stack>
  );
};
