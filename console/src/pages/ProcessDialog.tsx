import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  LinearProgress,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useEffect, useState } from 'react';
import { useDataProvider, useTranslate } from 'react-admin';
import type { ConsoleDataProvider, ProcessDetail } from '../data/dataProvider';
import { describeCommands, describeInput } from './processes';
import { useDates } from '../i18n/dates';

type Loaded = { kind: 'loading' } | { kind: 'error'; message: string } | { kind: 'loaded'; process: ProcessDetail };

const json = (value: unknown) => JSON.stringify(value ?? null, null, 2);

const Fact = ({ label, value, testId }: { label: string; value: string; testId?: string }) => (
  <Box>
    <Typography variant="caption" color="text.secondary">
      {label}
    </Typography>
    <Typography sx={{ wordBreak: 'break-word' }} data-testid={testId}>
      {value}
    </Typography>
  </Box>
);

/** One process opened from its row: state, next timer, last error and every input it received. */
export const ProcessDialog = ({ id, onClose }: { id: string | null; onClose: () => void }) => {
  const translate = useTranslate();
  const dates = useDates();
  const formatDate = (value: string | null | undefined) => dates.dateTime(value, '—');
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const [view, setView] = useState<Loaded>({ kind: 'loading' });

  useEffect(() => {
    if (!id) return;
    let current = true;
    setView({ kind: 'loading' });
    dataProvider
      .getProcess(id)
      .then(({ data }) => current && setView({ kind: 'loaded', process: data }))
      .catch((error: unknown) => current && setView({ kind: 'error', message: error instanceof Error ? error.message : String(error) }));
    return () => {
      current = false;
    };
  }, [id, dataProvider]);

  const field = (name: string) => translate(`console.processes.fields.${name}`);
  const detail = (name: string) => translate(`console.processes.detail.${name}`);

  return (
    <Dialog open={id !== null} onClose={onClose} maxWidth="lg" fullWidth aria-labelledby="process-dialog-title" data-testid="process-dialog">
      <DialogTitle id="process-dialog-title" sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>
        {translate('console.processes.detail.title', { id: id ?? '' })}
      </DialogTitle>
      <DialogContent dividers>
        {view.kind === 'loading' ? <LinearProgress /> : null}
        {view.kind === 'error' ? <Alert severity="error">{translate('console.processes.detail.loadFailed', { message: view.message })}</Alert> : null}
        {view.kind === 'loaded' ? (
          <Stack spacing={2}>
            <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: 'repeat(3, minmax(0, 1fr))' }, gap: 1.5 }}>
              <Fact label={field('type')} value={view.process.type} />
              <Fact
                label={field('status')}
                value={translate(`console.processes.statuses.${view.process.status}`, { _: view.process.status })}
                testId="process-status"
              />
              <Fact label={field('nextTimerAt')} value={formatDate(view.process.nextTimerAt)} testId="process-next-timer" />
              <Fact label={field('lastError')} value={view.process.lastError ?? '—'} testId="process-last-error" />
              <Fact label={detail('lastErrorAt')} value={formatDate(view.process.lastErrorAt)} />
              <Fact label={detail('pendingCommands')} value={String(view.process.pendingCommands ?? 0)} />
              <Fact label={detail('createdAt')} value={formatDate(view.process.createdAt)} />
              <Fact label={field('updatedAt')} value={formatDate(view.process.updatedAt)} />
            </Box>
            <Box>
              <Typography variant="subtitle2">{detail('state')}</Typography>
              <Box component="pre" sx={{ m: 0, fontSize: 12, whiteSpace: 'pre-wrap', wordBreak: 'break-all' }} data-testid="process-state">
                {json(view.process.state)}
              </Box>
            </Box>
            <Box>
              <Typography variant="subtitle2">{detail('history')}</Typography>
              {view.process.history === null ? <Typography color="text.secondary">{detail('noHistory')}</Typography> : null}
              {view.process.history?.length === 0 ? <Typography color="text.secondary">{detail('emptyHistory')}</Typography> : null}
              {view.process.history && view.process.history.length > 0 ? (
                <Table size="small" data-testid="process-history">
                  <TableHead>
                    <TableRow>
                      {['seq', 'at', 'kind', 'outcome', 'commands', 'input'].map((name) => (
                        <TableCell key={name}>{detail(name)}</TableCell>
                      ))}
                    </TableRow>
                  </TableHead>
                  <TableBody>
                    {view.process.history.map((entry) => {
                      const input = describeInput(entry);
                      return (
                        <TableRow key={entry.seq}>
                          <TableCell>{entry.seq}</TableCell>
                          <TableCell>{formatDate(entry.at)}</TableCell>
                          <TableCell>{translate(input.key, { name: input.name })}</TableCell>
                          <TableCell>{entry.outcome}</TableCell>
                          <TableCell>
                            {describeCommands(entry)
                              .map((c) => translate(`console.processes.command.${c.sent ? 'sent' : 'pending'}`, { type: c.type }))
                              .join(', ') || '—'}
                          </TableCell>
                          <TableCell>
                            <details>
                              <summary>JSON</summary>
                              <Box component="pre" sx={{ m: 0, fontSize: 11, whiteSpace: 'pre-wrap', wordBreak: 'break-all', maxWidth: 420 }}>
                                {json(entry.input)}
                              </Box>
                            </details>
                          </TableCell>
                        </TableRow>
                      );
                    })}
                  </TableBody>
                </Table>
              ) : null}
            </Box>
          </Stack>
        ) : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} data-testid="process-dialog-close">
          {detail('close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
};
