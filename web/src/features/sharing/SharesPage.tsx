import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
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
import TableSortLabel from '@mui/material/TableSortLabel';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useParams } from 'react-router';
import { SearchBox } from '../../components/SearchBox';
import { ErrorAlert } from '../../components/ErrorAlert';
import { formatDateTime } from '../../components/i18nHelpers';
import { useLoad } from '../../components/useLoad';
import { SHARES_PAGE_SIZE, sharingApi } from './sharing.api';
import type { ShareListQuery } from './sharing.types';
import { ShareDetails } from './ShareDetails';
import {
  emptyShareFilters,
  hasFilters,
  planUsage,
  shareFilterQuery,
  type ShareFilterField,
  type ShareFilterQuery,
  type ShareFilterValues,
} from './share-filters';
import { shareState } from './share-status';

type SortBy = ShareListQuery['sortBy'];
/** Default sort of shares: createdAt DESC (specification section 9). */
const DEFAULT_SORT: { sortBy: SortBy; sortOrder: 'ASC' | 'DESC' } = { sortBy: 'createdAt', sortOrder: 'DESC' };
const SORTABLE: { key: SortBy; label: string }[] = [
  { key: 'title', label: 'sharing.columns.title' },
  { key: 'createdAt', label: 'sharing.columns.created' },
  { key: 'expiresAt', label: 'sharing.columns.expires' },
];

const oneLine = { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', minWidth: 0 } as const;

const SharesList = () => {
  const { t, i18n } = useTranslation();
  // a phone lists each share as a card: seven columns do not fit its width
  const phone = useMediaQuery(useTheme().breakpoints.down('sm'), { noSsr: true });
  const [sorting, setSorting] = useState(DEFAULT_SORT);
  const [page, setPage] = useState(1);
  const [searchText, setSearchText] = useState('');
  const [search, setSearch] = useState('');
  const [filterValues, setFilterValues] = useState<ShareFilterValues>(emptyShareFilters);
  const [filterErrors, setFilterErrors] = useState<Partial<Record<ShareFilterField, string>>>({});
  const [filters, setFilters] = useState<ShareFilterQuery>({});

  const listed = useLoad(
    () => sharingApi.list({ page, perPage: SHARES_PAGE_SIZE, ...sorting, q: search || undefined, ...filters }),
    [page, sorting, search, filters],
  );
  const listing = listed.data ?? null;
  const { error } = listed;

  // The month's shares against the plan (the counter the create decides on)
  const usage =
    useLoad(
      () =>
        sharingApi.planCount().then(
          (c) => planUsage(c.count, c.limit),
          () => null,
        ),
      [],
    ).data ?? null;

  const applyFilters = (values: ShareFilterValues) => {
    const result = shareFilterQuery(values);
    if (!result.ok) {
      setFilterErrors(result.errors);
      return;
    }
    setFilterErrors({});
    setPage(1);
    setFilters(result.query);
  };
  const filterField = (field: ShareFilterField, label: string, type: 'date' | 'email') => (
    <TextField
      size="small"
      margin="none"
      fullWidth={false}
      type={type}
      label={t(label)}
      value={filterValues[field]}
      onChange={(e) => setFilterValues((v) => ({ ...v, [field]: e.target.value }))}
      error={Boolean(filterErrors[field])}
      helperText={filterErrors[field] ? t(filterErrors[field]) : undefined}
      slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': `shares-filter-${field}` } }}
    />
  );

  const now = new Date();
  const pages = Math.max(1, Math.ceil((listing?.totalCount ?? 0) / SHARES_PAGE_SIZE));
  const date = (iso: string | null | undefined) => (iso ? formatDateTime(iso, i18n.language) : '—');
  const sortLabel = (key: SortBy, label: string) => (
    <TableSortLabel
      active={sorting.sortBy === key}
      direction={sorting.sortBy === key && sorting.sortOrder === 'ASC' ? 'asc' : 'desc'}
      onClick={() => {
        setPage(1);
        setSorting({ sortBy: key, sortOrder: sorting.sortBy === key && sorting.sortOrder === 'DESC' ? 'ASC' : 'DESC' });
      }}
      data-testid={`shares-sort-${key}`}
    >
      {t(label)}
    </TableSortLabel>
  );

  return (
    <Box data-testid="shares-page">
      <Box sx={{ display: 'flex', alignItems: 'center', flexWrap: 'wrap', gap: 1, mb: 2 }}>
        <Typography variant="h5" component="h1" sx={{ flex: 1 }}>
          {t('sharing.list.title')}
        </Typography>
        <Button component={RouterLink} to="/shares_shared" data-testid="open-shared-with-me">
          {t('sharing.shared.title')}
        </Button>
        <SearchBox
          value={searchText}
          onChange={setSearchText}
          onSearch={(query) => {
            setPage(1);
            setSearch(query);
          }}
          onClear={() => setSearch('')}
          label={t('sharing.list.search')}
          testId="shares-search"
        />
      </Box>
      {usage && (
        <Typography
          variant="body2"
          color={usage.reached ? 'error' : 'text.secondary'}
          sx={{ mb: 1 }}
          data-testid="shares-plan-usage"
          data-count={usage.count}
          data-limit={usage.limit ?? ''}
        >
          {usage.limit === null
            ? t('sharing.filters.usageUnlimited', { count: usage.count })
            : t('sharing.filters.usage', { count: usage.count, limit: usage.limit })}
        </Typography>
      )}
      <Box
        component="form"
        aria-label={t('sharing.filters.title')}
        onSubmit={(e) => {
          e.preventDefault();
          applyFilters(filterValues);
        }}
        sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'flex-start', mb: 2 }}
        data-testid="shares-filters"
      >
        {filterField('expiresFrom', 'sharing.filters.expiresFrom', 'date')}
        {filterField('expiresTo', 'sharing.filters.expiresTo', 'date')}
        {filterField('email', 'sharing.filters.email', 'email')}
        <Button type="submit" variant="outlined" data-testid="shares-filter-apply">
          {t('sharing.filters.apply')}
        </Button>
        {hasFilters(filters) && (
          <Button
            onClick={() => {
              setFilterValues(emptyShareFilters());
              setFilterErrors({});
              setPage(1);
              setFilters({});
            }}
            data-testid="shares-filter-clear"
          >
            {t('sharing.filters.clear')}
          </Button>
        )}
      </Box>
      <ErrorAlert error={error} testId="shares-error" />
      {!listing && !error && <LinearProgress aria-label={t('common.loading')} />}
      {listing && listing.data.length === 0 && (
        <Alert severity="info" data-testid="shares-empty">
          {search || hasFilters(filters) ? t('sharing.list.noMatch') : t('sharing.list.empty')}
        </Alert>
      )}
      {listing && listing.data.length > 0 && phone && (
        <Paper variant="outlined" component="ul" data-testid="shares-table" aria-label={t('sharing.list.title')} sx={{ listStyle: 'none', p: 0, m: 0 }}>
          {listing.data.map((share) => {
            const status = shareState(share, now);
            return (
              <Box
                component="li"
                key={share.id}
                data-testid="share-row"
                data-title={share.title}
                data-share-id={share.id}
                sx={{ px: 2, py: 1.5, borderBottom: 1, borderColor: 'divider', '&:last-of-type': { borderBottom: 0 } }}
              >
                <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
                  <Link
                    component={RouterLink}
                    to={`/files/shares/${encodeURIComponent(share.id)}`}
                    title={share.title}
                    sx={{ ...oneLine, flex: 1 }}
                    data-testid="share-row-open"
                  >
                    {share.title}
                  </Link>
                  <Chip size="small" color={status === 'active' ? 'success' : 'default'} label={t(`sharing.state.${status}`)} />
                </Box>
                <Typography variant="caption" color="text.secondary" component="div">
                  {t(`sharing.kind.${share.kind}`)} · {t('sharing.columns.expires')}: {share.expiresAt ? date(share.expiresAt) : t('sharing.page.noExpiry')}
                </Typography>
                <Typography variant="caption" color="text.secondary" component="div">
                  {t('sharing.columns.opened')}: <span data-testid="share-row-opened">{share.openedCount ?? 0}</span> · {t('sharing.columns.created')}:{' '}
                  {date(share.createdAt)}
                </Typography>
              </Box>
            );
          })}
        </Paper>
      )}
      {listing && listing.data.length > 0 && !phone && (
        <Paper variant="outlined">
          <Table size="small" data-testid="shares-table" aria-label={t('sharing.list.title')}>
            <TableHead>
              <TableRow>
                <TableCell>{sortLabel('title', 'sharing.columns.title')}</TableCell>
                <TableCell>{t('sharing.columns.kind')}</TableCell>
                <TableCell>{t('sharing.columns.status')}</TableCell>
                <TableCell>{sortLabel('expiresAt', SORTABLE[2]!.label)}</TableCell>
                <TableCell align="right">{t('sharing.columns.opened')}</TableCell>
                <TableCell>{t('sharing.columns.deliveredOn')}</TableCell>
                <TableCell>{sortLabel('createdAt', SORTABLE[1]!.label)}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {listing.data.map((share) => {
                const status = shareState(share, now);
                return (
                  <TableRow key={share.id} hover data-testid="share-row" data-title={share.title} data-share-id={share.id}>
                    <TableCell>
                      <Link component={RouterLink} to={`/files/shares/${encodeURIComponent(share.id)}`} data-testid="share-row-open">
                        {share.title}
                      </Link>
                    </TableCell>
                    <TableCell>{t(`sharing.kind.${share.kind}`)}</TableCell>
                    <TableCell>
                      <Chip size="small" color={status === 'active' ? 'success' : 'default'} label={t(`sharing.state.${status}`)} />
                    </TableCell>
                    <TableCell>{share.expiresAt ? date(share.expiresAt) : t('sharing.page.noExpiry')}</TableCell>
                    <TableCell align="right" data-testid="share-row-opened">
                      {share.openedCount ?? 0}
                    </TableCell>
                    <TableCell>{date(share.deliveredOn)}</TableCell>
                    <TableCell>{date(share.createdAt)}</TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        </Paper>
      )}
      {pages > 1 && (
        <Box sx={{ display: 'flex', justifyContent: 'center', mt: 2 }}>
          <Pagination count={pages} page={page} onChange={(_, p) => setPage(p)} data-testid="shares-pagination" />
        </Box>
      )}
    </Box>
  );
};

/** files/shares/:shareId? (spec §2): the owner's shares, or one of them. */
export const SharesPage = () => {
  const { shareId } = useParams();
  return (
    <Container maxWidth="lg" sx={{ py: 3 }}>
      {shareId ? <ShareDetails key={shareId} shareId={shareId} /> : <SharesList />}
    </Container>
  );
};
