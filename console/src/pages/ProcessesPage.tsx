import RefreshIcon from '@mui/icons-material/Refresh';
import ReplayIcon from '@mui/icons-material/Replay';
import { Alert, Button, Card, CardContent, Chip, LinearProgress, Stack, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useCallback, useEffect, useState } from 'react';
import { Title, useDataProvider, useNotify, useTranslate } from 'react-admin';
import type { ConsoleDataProvider, ProcessRecord, ProcessStatus } from '../data/dataProvider';
import { ProcessDialog } from './ProcessDialog';
import { canRetry, processesViewForError, sortProcesses, type ProcessesView } from './processes';
import { useDates } from '../i18n/dates';

const statusColor: Record<ProcessStatus, 'default' | 'info' | 'success' | 'error' | 'warning'> = {
  running: 'info',
  completed: 'success',
  dead_letter: 'error',
  failed: 'warning',
};

const formatState = (state: unknown) => {
  if (state === null || state === undefined) return '—';
  const text = typeof state === 'string' ? state : JSON.stringify(state);
  return text.length > 160 ? `${text.slice(0, 157)}...` : text;
};

const RetryButton = ({ row, onDone }: { row: ProcessRecord; onDone: () => void }) => {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const [busy, setBusy] = useState(false);
  const retry = async () => {
    setBusy(true);
    try {
      await dataProvider.retryProcess(row.id);
      notify('console.processes.retried', { type: 'success', messageArgs: { id: row.id } });
      onDone();
    } catch (error) {
      notify((error as Error).message || 'ra.notification.http_error', { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button
      size="small"
      startIcon={<ReplayIcon />}
      disabled={busy}
      onClick={(event) => {
        // the row behind the button opens the process
        event.stopPropagation();
        void retry();
      }}
      data-testid={`process-retry-${row.id}`}
    >
      {translate('console.processes.retry')}
    </Button>
  );
};

export const ProcessesPage = () => {
  const translate = useTranslate();
  const dates = useDates();
  const formatDate = (value: string | null) => dates.dateTime(value, '—');
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const [view, setView] = useState<ProcessesView>({ kind: 'loading' });
  const [opened, setOpened] = useState<string | null>(null);

  const load = useCallback(async () => {
    setView((current) => (current.kind === 'loaded' ? current : { kind: 'loading' }));
    try {
      const { data } = await dataProvider.getProcesses();
      setView({ kind: 'loaded', rows: sortProcesses(data) });
    } catch (error) {
      setView(processesViewForError(error));
    }
  }, [dataProvider]);

  useEffect(() => {
    void load();
  }, [load]);

  const field = (name: string) => translate(`console.processes.fields.${name}`);

  return (
    <Card sx={{ mt: 2 }} data-testid="processes">
      <Title title="console.processes.title" />
      <CardContent>
        <Stack direction="row" sx={{ mb: 2, justifyContent: 'space-between', alignItems: 'center', gap: 2 }}>
          <Typography color="text.secondary">{translate('console.processes.intro')}</Typography>
          <Button startIcon={<RefreshIcon />} onClick={() => void load()} data-testid="processes-reload">
            {translate('console.processes.reload')}
          </Button>
        </Stack>
        {view.kind === 'loading' ? <LinearProgress /> : null}
        {view.kind === 'unavailable' ? (
          <Alert severity="info" data-testid="processes-unavailable">
            {translate('console.processes.unavailable')}
          </Alert>
        ) : null}
        {view.kind === 'error' ? (
          <Alert severity="error" data-testid="processes-error">
            {translate('console.processes.loadFailed', { message: view.message })}
          </Alert>
        ) : null}
        {view.kind === 'loaded' && view.rows.length === 0 ? (
          <Alert severity="info" data-testid="processes-empty">
            {translate('console.processes.empty')}
          </Alert>
        ) : null}
        {view.kind === 'loaded' && view.rows.length > 0 ? (
          <Table size="small" data-testid="processes-table">
            <TableHead>
              <TableRow>
                {['id', 'type', 'status', 'state', 'nextTimerAt', 'lastError', 'updatedAt'].map((name) => (
                  <TableCell key={name}>{field(name)}</TableCell>
                ))}
                <TableCell />
              </TableRow>
            </TableHead>
            <TableBody>
              {view.rows.map((row) => (
                <TableRow
                  key={row.id}
                  hover
                  tabIndex={0}
                  title={translate('console.processes.open', { id: row.id })}
                  sx={{ cursor: 'pointer' }}
                  onClick={() => setOpened(row.id)}
                  onKeyDown={(event) => {
                    if (event.key === 'Enter' || event.key === ' ') {
                      event.preventDefault();
                      setOpened(row.id);
                    }
                  }}
                  data-testid={`process-row-${row.id}`}
                >
                  <TableCell sx={{ fontFamily: 'monospace' }}>{row.id}</TableCell>
                  <TableCell>{row.type}</TableCell>
                  <TableCell>
                    <Chip
                      size="small"
                      color={statusColor[row.status] ?? 'default'}
                      label={translate(`console.processes.statuses.${row.status}`, { _: row.status })}
                    />
                  </TableCell>
                  <TableCell sx={{ fontFamily: 'monospace', fontSize: 12, maxWidth: 320, wordBreak: 'break-all' }}>{formatState(row.state)}</TableCell>
                  <TableCell>{formatDate(row.nextTimerAt)}</TableCell>
                  <TableCell sx={{ maxWidth: 280, wordBreak: 'break-word' }}>{row.lastError ?? '—'}</TableCell>
                  <TableCell>{formatDate(row.updatedAt)}</TableCell>
                  <TableCell>{canRetry(row) ? <RetryButton row={row} onDone={() => void load()} /> : null}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        ) : null}
      </CardContent>
      <ProcessDialog id={opened} onClose={() => setOpened(null)} />
    </Card>
  );
};
