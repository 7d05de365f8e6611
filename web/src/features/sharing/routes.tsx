import LockOutlined from '@mui/icons-material/LockOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import Pagination from '@mui/material/Pagination';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation, useParams } from 'react-router';
import { ErrorAlert } from '../../components/ErrorAlert';
import { formatDateTime, localeTag } from '../../components/i18nHelpers';
import { NotFoundPage } from '../../components/NotFoundPage';
import { useLoad } from '../../components/useLoad';
import { useSession } from '../../session/store';
import { formatBytes } from '../files/format';
import { SharePage } from './SharePage';
import { folderIdFromRest, shareLocationPath } from './share-location';
import { senderLabel } from './share-sender';
import { SHARES_PAGE_SIZE, sharingApi } from './sharing.api';

/** /shares/:shareId/* and /private-share/:shareId/*: the param is the share's link id. */
export const ShareLinkRoute = () => {
  const { shareId, '*': rest } = useParams();
  const { pathname } = useLocation();
  if (!shareId) return <NotFoundPage />;
  const routeKind = /^\/private-share\//i.test(pathname) ? 'private' : 'public';
  return <SharePage key={`${routeKind}-${shareId}`} linkId={shareId} routeKind={routeKind} folderId={folderIdFromRest(rest)} />;
};

/**
 * shares_shared/:id?/entries/:hash?: the signed-in user's "shared with me" list (the live private
 * shares sent to their verified e-mail); with an id, that share opened, their own e-mail standing
 * for the recipient's, and :hash naming a folder (or file) inside it.
 */
export const SharesSharedRoute = () => {
  const { id, hash } = useParams();
  if (id) return <SharePage key={id} linkId={id} routeKind="private" folderId={hash ?? null} sharedWithMe />;
  return <SharedWithMeList />;
};

/** Below the `sm` breakpoint (phones) the sender sits under the title instead of in a column of its own. */
const WIDE = { display: { xs: 'none', sm: 'table-cell' } } as const;

const SharedWithMeList = () => {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const [page, setPage] = useState(1);

  const listed = useLoad(user ? () => sharingApi.sharedWithMe(page) : null, [user, page]);
  const listing = listed.data ?? null;
  const { error } = listed;

  const pages = Math.max(1, Math.ceil((listing?.totalCount ?? 0) / SHARES_PAGE_SIZE));
  const date = (iso: string | null) => (iso ? formatDateTime(iso, i18n.language) : t('sharing.page.noExpiry'));
  const size = (bytes: number | undefined) => (typeof bytes === 'number' ? formatBytes(bytes, localeTag(i18n.language)) : '—');
  return (
    <Container maxWidth="lg" sx={{ py: 3 }} data-testid="shares-shared">
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 1 }}>
        <Typography variant="h5" component="h1" sx={{ flex: 1 }}>
          {t('sharing.shared.title')}
        </Typography>
        {user && (
          <Button component={RouterLink} to="/files/shares" data-testid="open-my-shares">
            {t('sharing.list.title')}
          </Button>
        )}
      </Box>
      {!user ? (
        <>
          <Alert severity="info">{t('sharing.shared.body')}</Alert>
          <Button component={RouterLink} to="/signin?redirect=%2Fshares_shared" variant="contained" sx={{ mt: 2 }}>
            {t('common.toSignIn')}
          </Button>
        </>
      ) : (
        <>
          <ErrorAlert error={error} testId="shares-shared-error" />
          {!listing && !error && <LinearProgress aria-label={t('common.loading')} />}
          {listing && listing.data.length === 0 && (
            <Alert severity="info" data-testid="shares-shared-empty">
              {t('sharing.shared.empty')}
            </Alert>
          )}
          {listing && listing.data.length > 0 && (
            <Paper variant="outlined">
              <Table size="small" data-testid="shares-shared-table" aria-label={t('sharing.shared.title')}>
                <TableHead>
                  <TableRow>
                    <TableCell>{t('sharing.columns.title')}</TableCell>
                    <TableCell sx={WIDE}>{t('sharing.columns.sender')}</TableCell>
                    <TableCell align="right" sx={WIDE}>
                      {t('sharing.columns.size')}
                    </TableCell>
                    <TableCell sx={WIDE}>{t('sharing.columns.expires')}</TableCell>
                    <TableCell sx={WIDE}>{t('sharing.columns.created')}</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {listing.data.map((share) => (
                    <TableRow key={share.id} hover data-testid="shared-row" data-title={share.title}>
                      <TableCell>
                        <Link
                          component={RouterLink}
                          to={shareLocationPath({ kind: 'private', linkId: share.shareLinkId, sharedWithMe: true }, null)}
                          data-testid="shared-row-open"
                        >
                          {share.title}
                        </Link>
                        {share.hasPassword && (
                          <LockOutlined fontSize="inherit" sx={{ ml: 0.5, verticalAlign: 'middle' }} aria-label={t('sharing.shared.protected')} />
                        )}
                        {/* a phone has no room for the other columns: the sender, size and expiry sit under the title */}
                        <Box sx={{ display: { xs: 'block', sm: 'none' } }}>
                          <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }} data-testid="shared-row-sender-below">
                            {t('sharing.page.sharedBy', { name: senderLabel(share) ?? '—' })}
                          </Typography>
                          <Typography variant="caption" color="text.secondary">
                            {[
                              size(share.totalSize),
                              share.expiresAt ? t('sharing.page.expires', { date: date(share.expiresAt) }) : t('sharing.page.noExpiry'),
                            ].join(' · ')}
                          </Typography>
                        </Box>
                        {share.description && (
                          <Typography variant="body2" color="text.secondary">
                            {share.description}
                          </Typography>
                        )}
                      </TableCell>
                      <TableCell sx={{ ...WIDE, overflowWrap: 'anywhere' }} data-testid="shared-row-sender">
                        {senderLabel(share) ?? '—'}
                      </TableCell>
                      <TableCell align="right" sx={WIDE}>
                        {size(share.totalSize)}
                      </TableCell>
                      <TableCell sx={WIDE}>{date(share.expiresAt)}</TableCell>
                      <TableCell sx={WIDE}>{formatDateTime(share.createdAt, i18n.language)}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </Paper>
          )}
          {pages > 1 && (
            <Box sx={{ display: 'flex', justifyContent: 'center', mt: 2 }}>
              <Pagination count={pages} page={page} onChange={(_, p) => setPage(p)} data-testid="shares-shared-pagination" />
            </Box>
          )}
        </>
      )}
    </Container>
  );
};
