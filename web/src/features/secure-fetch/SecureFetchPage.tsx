import AddOutlined from '@mui/icons-material/AddOutlined';
import SearchOutlined from '@mui/icons-material/SearchOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Container from '@mui/material/Container';
import InputAdornment from '@mui/material/InputAdornment';
import LinearProgress from '@mui/material/LinearProgress';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import Pagination from '@mui/material/Pagination';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TableSortLabel from '@mui/material/TableSortLabel';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { ErrorAlert } from '../../components/ErrorAlert';
import { formatDateTime } from '../../components/i18nHelpers';
import { useLoad } from '../../components/useLoad';
import { useSession } from '../../session/store';
import { CreateFetchDialog } from './CreateFetchDialog';
import { FetchDetails } from './FetchDetails';
import { secureFetchApi, type FetchSortBy, type SecureFetch, type SortOrder } from './secure-fetch.api';
import { expiryRange } from './list-query';
import { statusOf } from './status';

/** Spec §9: share views list 500 per page. */
export const FETCH_PAGE_SIZE = 500;
const SEARCH_DELAY_MS = 300;

const COLUMNS: ReadonlyArray<{ key: FetchSortBy; label: string }> = [
  { key: 'note', label: 'secureFetch.list.note' },
  { key: 'status', label: 'secureFetch.list.status' },
  { key: 'createdAt', label: 'secureFetch.list.created' },
  { key: 'expiresAt', label: 'secureFetch.list.expires' },
];

const oneLine = { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', minWidth: 0 } as const;

const FetchList = ({ userId }: { userId: string }) => {
  const { t, i18n } = useTranslation();
  // a phone lists each link as a card: the table's columns do not fit its width
  const phone = useMediaQuery(useTheme().breakpoints.down('sm'), { noSsr: true });
  const navigate = useNavigate();
  const [page, setPage] = useState(1);
  const [sortBy, setSortBy] = useState<FetchSortBy>('createdAt');
  const [sortOrder, setSortOrder] = useState<SortOrder>('DESC');
  const [search, setSearch] = useState('');
  const [q, setQ] = useState('');
  const [expiresFrom, setExpiresFrom] = useState('');
  const [expiresUntil, setExpiresUntil] = useState('');
  const [creating, setCreating] = useState(false);

  useEffect(() => {
    const timer = setTimeout(() => {
      setQ(search.trim());
      setPage(1);
    }, SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [search]);

  const listed = useLoad(
    () => secureFetchApi.list(userId, { page, perPage: FETCH_PAGE_SIZE, sortBy, sortOrder, q, ...expiryRange(expiresFrom, expiresUntil) }),
    [userId, page, sortBy, sortOrder, q, expiresFrom, expiresUntil],
  );
  const { error, loading } = listed;
  const result = listed.data ?? null;

  const sort = (key: FetchSortBy) => {
    if (key === sortBy) setSortOrder(sortOrder === 'ASC' ? 'DESC' : 'ASC');
    else {
      setSortBy(key);
      setSortOrder(key === 'note' ? 'ASC' : 'DESC');
    }
    setPage(1);
  };
  const pages = result ? Math.max(1, Math.ceil(result.totalCount / FETCH_PAGE_SIZE)) : 1;
  const open = (f: SecureFetch) => void navigate(`/files/secure-fetch/${encodeURIComponent(f.id)}`);

  return (
    <Box>
      <Box sx={{ display: 'flex', gap: 2, alignItems: 'center', mb: 2, flexWrap: 'wrap' }}>
        <Typography variant="h5" component="h1" sx={{ flex: 1 }}>
          {t('secureFetch.title')}
        </Typography>
        <TextField
          size="small"
          placeholder={t('secureFetch.list.search')}
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          slotProps={{
            htmlInput: { 'data-testid': 'fetch-search', 'aria-label': t('secureFetch.list.search') },
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <SearchOutlined fontSize="small" />
                </InputAdornment>
              ),
            },
          }}
        />
        <TextField
          size="small"
          type="date"
          label={t('secureFetch.list.expiresFrom')}
          value={expiresFrom}
          onChange={(e) => (setExpiresFrom(e.target.value), setPage(1))}
          slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': 'fetch-expires-from' } }}
        />
        <TextField
          size="small"
          type="date"
          label={t('secureFetch.list.expiresUntil')}
          value={expiresUntil}
          onChange={(e) => (setExpiresUntil(e.target.value), setPage(1))}
          slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': 'fetch-expires-until' } }}
        />
        <Button variant="contained" startIcon={<AddOutlined />} onClick={() => setCreating(true)} data-testid="fetch-create">
          {t('secureFetch.create.button')}
        </Button>
      </Box>
      <ErrorAlert error={error} testId="fetch-list-error" />
      {phone && (
        <Paper variant="outlined">
          {loading && <LinearProgress />}
          <List disablePadding data-testid="fetch-list">
            {result?.data.map((f) => {
              const status = statusOf(f);
              return (
                <ListItem key={f.id} disablePadding divider>
                  <ListItemButton onClick={() => open(f)} data-testid="fetch-row" data-status={status} data-id={f.id} sx={{ display: 'block' }}>
                    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
                      <Typography sx={{ ...oneLine, flex: 1 }} title={f.note}>
                        {f.note}
                      </Typography>
                      <Chip
                        size="small"
                        label={t(`secureFetch.status.${status}`)}
                        color={status === 'uploaded' ? 'warning' : status === 'active' ? 'success' : 'default'}
                      />
                    </Box>
                    <Typography variant="caption" color="text.secondary" component="div">
                      {t('secureFetch.list.created')}: {formatDateTime(f.createdAt, i18n.language)}
                    </Typography>
                    <Typography variant="caption" color="text.secondary" component="div">
                      {t('secureFetch.list.expires')}: {f.expiresAt ? formatDateTime(f.expiresAt, i18n.language) : t('secureFetch.untilUsed')} ·{' '}
                      {t('secureFetch.list.certificate')}: {f.certificated ? t('secureFetch.list.yes') : t('secureFetch.list.no')}
                    </Typography>
                  </ListItemButton>
                </ListItem>
              );
            })}
            {result && result.data.length === 0 && (
              <Typography component="li" sx={{ p: 2 }} data-testid="fetch-list-empty">
                {q ? t('secureFetch.list.noMatch') : t('secureFetch.list.empty')}
              </Typography>
            )}
          </List>
        </Paper>
      )}
      {!phone && (
        <Paper variant="outlined">
          {loading && <LinearProgress />}
          <Table size="small" data-testid="fetch-list">
            <TableHead>
              <TableRow>
                {COLUMNS.map((c) => (
                  <TableCell key={c.key} sortDirection={sortBy === c.key ? (sortOrder === 'ASC' ? 'asc' : 'desc') : false}>
                    <TableSortLabel
                      active={sortBy === c.key}
                      direction={sortBy === c.key && sortOrder === 'ASC' ? 'asc' : 'desc'}
                      onClick={() => sort(c.key)}
                      data-testid={`fetch-sort-${c.key}`}
                    >
                      {t(c.label)}
                    </TableSortLabel>
                  </TableCell>
                ))}
                <TableCell>{t('secureFetch.list.certificate')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {result?.data.map((f) => {
                const status = statusOf(f);
                return (
                  <TableRow key={f.id} hover onClick={() => open(f)} sx={{ cursor: 'pointer' }} data-testid="fetch-row" data-status={status} data-id={f.id}>
                    <TableCell sx={{ maxWidth: 320, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }} title={f.note}>
                      {f.note}
                    </TableCell>
                    <TableCell>
                      <Chip
                        size="small"
                        label={t(`secureFetch.status.${status}`)}
                        color={status === 'uploaded' ? 'warning' : status === 'active' ? 'success' : 'default'}
                      />
                    </TableCell>
                    <TableCell>{formatDateTime(f.createdAt, i18n.language)}</TableCell>
                    <TableCell>{f.expiresAt ? formatDateTime(f.expiresAt, i18n.language) : t('secureFetch.untilUsed')}</TableCell>
                    <TableCell>{f.certificated ? t('secureFetch.list.yes') : t('secureFetch.list.no')}</TableCell>
                  </TableRow>
                );
              })}
              {result && result.data.length === 0 && (
                <TableRow>
                  <TableCell colSpan={5} data-testid="fetch-list-empty">
                    {q ? t('secureFetch.list.noMatch') : t('secureFetch.list.empty')}
                  </TableCell>
                </TableRow>
              )}
            </TableBody>
          </Table>
        </Paper>
      )}
      {pages > 1 && <Pagination sx={{ mt: 2 }} count={pages} page={page} onChange={(_, p) => setPage(p)} />}
      <CreateFetchDialog userId={userId} open={creating} onClose={() => setCreating(false)} onCreated={listed.reload} />
    </Box>
  );
};

/** files/secure-fetch(es)/:shareId? (spec §2): the owner's Secure Fetch links, or one of them. */
export const SecureFetchPage = () => {
  const { user } = useSession();
  const { shareId } = useParams();
  if (!user) return null;
  return (
    <Container maxWidth="lg" sx={{ py: 3 }} data-testid="secure-fetch-page">
      {shareId ? <FetchDetails key={shareId} userId={user.id} fetchId={shareId} /> : <FetchList userId={user.id} />}
    </Container>
  );
};
