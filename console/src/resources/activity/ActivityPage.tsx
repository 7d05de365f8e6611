import DataObjectIcon from '@mui/icons-material/DataObject';
import DownloadIcon from '@mui/icons-material/Download';
import HistoryIcon from '@mui/icons-material/History';
import InsertDriveFileIcon from '@mui/icons-material/InsertDriveFileOutlined';
import TimelineIcon from '@mui/icons-material/Timeline';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  IconButton,
  LinearProgress,
  Link as MuiLink,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import { Fragment, useEffect, useState, type FormEvent } from 'react';
import { Title, useBasename, useLocale, useTranslate } from 'react-admin';
import { Link, useSearchParams } from 'react-router-dom';
import { httpClient } from '../../data/dataProvider';
import {
  exportUrl,
  FILTER_FIELDS,
  filtersFrom,
  itemOf,
  listUrl,
  totalOf,
  travelQuery,
  type ActivityFilters,
  type ActivityRow,
  type FilterField,
} from './activity';
import { readerTimeZone, useDates } from '../../i18n/dates';

type Load = { kind: 'loading' } | { kind: 'loaded'; rows: ActivityRow[]; next: number | null; total: number | null } | { kind: 'failed'; message: string };

const TIME_FIELDS = new Set<FilterField>(['from', 'to']);

/** The filter bar: edits a draft, applies it to the address bar (so a filtered view is a link). */
const Filters = ({ filters, onApply }: { filters: ActivityFilters; onApply: (next: ActivityFilters) => void }) => {
  const translate = useTranslate();
  const [draft, setDraft] = useState<ActivityFilters>(filters);
  useEffect(() => setDraft(filters), [filters]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onApply(draft);
  };
  return (
    <Box component="form" onSubmit={submit} sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5, mb: 2, alignItems: 'center' }} data-testid="activity-filters">
      {FILTER_FIELDS.map((field) => (
        <TextField
          key={field}
          size="small"
          label={translate(`activityLog.filters.${field}`)}
          type={TIME_FIELDS.has(field) ? 'datetime-local' : 'text'}
          value={draft[field] ?? ''}
          onChange={(e) => setDraft({ ...draft, [field]: e.target.value })}
          slotProps={{ inputLabel: TIME_FIELDS.has(field) ? { shrink: true } : undefined, htmlInput: { 'data-testid': `activity-filter-${field}`, step: 1 } }}
          fullWidth={false}
          sx={{ width: field === 'type' || field === 'actor' || TIME_FIELDS.has(field) ? 260 : 220, m: 0 }}
        />
      ))}
      <Button type="submit" variant="contained" data-testid="activity-apply">
        {translate('activityLog.filters.apply')}
      </Button>
      <Button onClick={() => onApply({})} data-testid="activity-clear">
        {translate('activityLog.filters.clear')}
      </Button>
    </Box>
  );
};

const COLUMNS = ['time', 'event', 'actor', 'stream', 'ip', 'client', 'actions'] as const;

const Json = ({ row }: { row: ActivityRow }) => (
  <Box component="pre" sx={{ m: 0, fontSize: 12, whiteSpace: 'pre-wrap', wordBreak: 'break-all' }} data-testid="activity-json">
    {JSON.stringify(row, null, 2)}
  </Box>
);

/**
 * The activity rows of some filters, newest first, each event in words with its JSON one click
 * away, paged by the keyset cursor, with their total and exports. The Activity page and a user's
 * Activity tab both show this one list, so they read the same events and the same numbers.
 */
export const ActivityList = ({
  filters,
  withStream = true,
}: {
  filters: ActivityFilters /** false where every row is one subject's (a user's tab): the stream ids say nothing there. */;
  withStream?: boolean;
}) => {
  const translate = useTranslate();
  // the sentences come worded by the API in the console's language and the reader's time zone
  const locale = useLocale();
  const timeZone = readerTimeZone();
  const dates = useDates();
  const basename = useBasename();
  const key = JSON.stringify(filters);
  // the cursors of the pages before this one (keyset paging: each page starts below the last position seen)
  const [cursors, setCursors] = useState<number[]>([]);
  const [load, setLoad] = useState<Load>({ kind: 'loading' });
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());

  useEffect(() => setCursors([]), [key]);
  const cursor = cursors[cursors.length - 1];
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` stands for the filters
  useEffect(() => {
    const controller = new AbortController();
    setLoad({ kind: 'loading' });
    httpClient(listUrl(filters, cursor, undefined, locale, timeZone), { signal: controller.signal })
      .then(({ json, headers }) => {
        const next = headers.get('x-activity-next');
        setLoad({ kind: 'loaded', rows: json as ActivityRow[], next: next ? Number(next) : null, total: totalOf(headers.get('content-range')) });
      })
      .catch((error: Error) => {
        if (!controller.signal.aborted) setLoad({ kind: 'failed', message: error.message });
      });
    return () => controller.abort();
  }, [key, cursor, locale, timeZone]);

  const toggle = (id: string) => setOpen((was) => (was.has(id) ? new Set([...was].filter((x) => x !== id)) : new Set([...was, id])));
  const timelineOf = (field: 'user' | 'aggregate', value: string) => `${basename}/activity?${new URLSearchParams({ [field]: value })}`;
  const travelTo = (row: ActivityRow) => `${basename}/activity/state?${travelQuery(row)}`;
  const columns = COLUMNS.filter((c) => withStream || c !== 'stream');

  return (
    <>
      <Stack direction="row" sx={{ gap: 1, alignItems: 'center', mb: 1, flexWrap: 'wrap' }}>
        <Typography color="text.secondary" sx={{ flexGrow: 1 }} data-testid="activity-total">
          {load.kind === 'loaded' ? (load.total === null ? translate('activityLog.totalUnknown') : translate('activityLog.total', { count: load.total })) : ''}
        </Typography>
        <Button component="a" href={exportUrl(filters, 'csv', locale, timeZone)} download startIcon={<DownloadIcon />} data-testid="activity-export-csv">
          {translate('activityLog.exportCsv')}
        </Button>
        <Button component="a" href={exportUrl(filters, 'jsonl', locale, timeZone)} download startIcon={<DownloadIcon />} data-testid="activity-export-jsonl">
          {translate('activityLog.exportJsonl')}
        </Button>
      </Stack>
      {load.kind === 'loading' ? <LinearProgress /> : null}
      {load.kind === 'failed' ? <Alert severity="error">{translate('activityLog.loadFailed', { message: load.message })}</Alert> : null}
      {load.kind === 'loaded' && load.rows.length === 0 ? (
        <Typography color="text.secondary" sx={{ py: 2 }} data-testid="activity-empty">
          {translate('activityLog.empty')}
        </Typography>
      ) : null}
      {load.kind === 'loaded' && load.rows.length > 0 ? (
        <Box sx={{ overflowX: 'auto' }}>
          <Table size="small" data-testid="activity-table">
            <TableHead>
              <TableRow>
                {columns.map((c) => (
                  <TableCell key={c}>{c === 'actions' ? null : translate(`activityLog.columns.${c}`)}</TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {load.rows.map((row) => (
                <Fragment key={row.id}>
                  <TableRow data-testid="activity-row" data-type={row.type} data-position={row.position}>
                    <TableCell sx={{ whiteSpace: 'nowrap' }} title={row.time}>
                      {dates.dateTime(row.time)}
                    </TableCell>
                    <TableCell data-testid="activity-sentence">{row.sentence}</TableCell>
                    <TableCell>
                      {row.actor.id && (row.actor.kind === 'user' || row.actor.kind === 'staff') ? (
                        <MuiLink component={Link} to={timelineOf('user', row.actor.id)} data-testid="activity-actor">
                          {row.actor.label}
                        </MuiLink>
                      ) : (
                        row.actor.label
                      )}
                    </TableCell>
                    {withStream ? (
                      <TableCell>
                        <MuiLink
                          component={Link}
                          to={timelineOf('aggregate', row.stream)}
                          title={row.stream}
                          sx={{
                            fontFamily: 'monospace',
                            fontSize: 12,
                            display: 'block',
                            maxWidth: 180,
                            overflow: 'hidden',
                            textOverflow: 'ellipsis',
                            whiteSpace: 'nowrap',
                          }}
                          data-testid="activity-stream"
                        >
                          {row.stream}
                        </MuiLink>
                      </TableCell>
                    ) : null}
                    <TableCell>{row.ip ?? ''}</TableCell>
                    <TableCell>{row.client ?? ''}</TableCell>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>
                      <Tooltip title={translate(open.has(row.id) ? 'activityLog.hideJson' : 'activityLog.json')}>
                        <IconButton size="small" onClick={() => toggle(row.id)} aria-pressed={open.has(row.id)} data-testid="activity-json-toggle">
                          <DataObjectIcon fontSize="small" />
                        </IconButton>
                      </Tooltip>
                      {row.aggregate ? (
                        <Tooltip title={translate('activityLog.timeTravel')}>
                          <IconButton size="small" component={Link} to={travelTo(row)} data-testid="activity-time-travel">
                            <HistoryIcon fontSize="small" />
                          </IconButton>
                        </Tooltip>
                      ) : null}
                      {itemOf(row) ? (
                        <Tooltip title={translate('activityLog.itemTimeline')}>
                          <IconButton
                            size="small"
                            component={Link}
                            to={`${basename}/activity?${new URLSearchParams({ aggregate: row.stream, item: itemOf(row)! })}`}
                            data-testid="activity-item-timeline"
                          >
                            <InsertDriveFileIcon fontSize="small" />
                          </IconButton>
                        </Tooltip>
                      ) : null}
                      {row.aggregate === 'user' ? (
                        <Tooltip title={translate('activityLog.timeline')}>
                          <IconButton
                            size="small"
                            component={Link}
                            to={timelineOf('user', row.stream.slice('user-'.length))}
                            data-testid="activity-user-timeline"
                          >
                            <TimelineIcon fontSize="small" />
                          </IconButton>
                        </Tooltip>
                      ) : null}
                    </TableCell>
                  </TableRow>
                  {open.has(row.id) ? (
                    <TableRow>
                      <TableCell colSpan={columns.length}>
                        <Json row={row} />
                      </TableCell>
                    </TableRow>
                  ) : null}
                </Fragment>
              ))}
            </TableBody>
          </Table>
        </Box>
      ) : null}
      <Stack direction="row" sx={{ gap: 1, justifyContent: 'flex-end', mt: 1 }}>
        <Button disabled={cursors.length === 0} onClick={() => setCursors(cursors.slice(0, -1))} data-testid="activity-newer">
          {translate('activityLog.newer')}
        </Button>
        <Button
          disabled={load.kind !== 'loaded' || load.next === null}
          onClick={() => load.kind === 'loaded' && load.next !== null && setCursors([...cursors, load.next])}
          data-testid="activity-older"
        >
          {translate('activityLog.older')}
        </Button>
      </Stack>
    </>
  );
};

/**
 * Console "Activity": the whole log, or one user's or one aggregate's timeline (the filters in the
 * address bar say which).
 */
export const ActivityPage = () => {
  const translate = useTranslate();
  const [params, setParams] = useSearchParams();
  const filters = filtersFrom(params);

  const apply = (next: ActivityFilters) => setParams(new URLSearchParams(Object.entries(next).filter(([, v]) => v) as [string, string][]));

  const subject = filters.aggregate ?? filters.user;
  const title = filters.item
    ? translate('activityLog.itemTimelineTitle', { item: filters.item, subject: filters.aggregate ?? '' })
    : filters.aggregate
      ? translate('activityLog.aggregateTimeline', { subject })
      : filters.user
        ? translate('activityLog.userTimeline', { subject })
        : translate('activityLog.title');

  return (
    <Card sx={{ mt: 2 }} data-testid="activity">
      <Title title={title} />
      <CardContent>
        <Typography variant="h6" data-testid="activity-title">
          {title}
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 2 }}>
          {translate('activityLog.intro')}
        </Typography>
        <Filters filters={filters} onApply={apply} />
        <ActivityList filters={filters} />
      </CardContent>
    </Card>
  );
};
