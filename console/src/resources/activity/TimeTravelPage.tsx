import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  FormControlLabel,
  LinearProgress,
  Switch,
  Link as MuiLink,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { useEffect, useState, type FormEvent } from 'react';
import { Title, useBasename, useTranslate } from 'react-admin';
import { Link, useSearchParams } from 'react-router-dom';
import { httpClient } from '../../data/dataProvider';
import { compareStates, inFocus, stateUrl, toInstant, toLocalInput, type StateAnswer } from './activity';
import { useDates } from '../../i18n/dates';

type Load = { kind: 'idle' } | { kind: 'loading' } | { kind: 'loaded'; answer: StateAnswer } | { kind: 'failed'; message: string };

/**
 * Time travel: an aggregate's state as of an instant (`?stream=user-1&at=<ISO>`), rebuilt by the
 * server from its events, beside today's, field by field with the changed ones highlighted.
 */
export const TimeTravelPage = () => {
  const translate = useTranslate();
  const dates = useDates();
  const basename = useBasename();
  const [params, setParams] = useSearchParams();
  const stream = params.get('stream') ?? '';
  const at = params.get('at') ?? '';
  const focus = params.get('focus');
  const [draft, setDraft] = useState(toLocalInput(at));
  const [load, setLoad] = useState<Load>({ kind: 'idle' });
  const [changedOnly, setChangedOnly] = useState(false);

  useEffect(() => setDraft(toLocalInput(at)), [at]);
  useEffect(() => {
    if (!stream || !at) return;
    const controller = new AbortController();
    setLoad({ kind: 'loading' });
    httpClient(stateUrl(stream, at), { signal: controller.signal })
      .then(({ json }) => setLoad({ kind: 'loaded', answer: json as StateAnswer }))
      .catch((error: Error) => {
        if (!controller.signal.aborted) setLoad({ kind: 'failed', message: error.message });
      });
    return () => controller.abort();
  }, [stream, at]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const instant = toInstant(draft);
    if (instant) setParams(new URLSearchParams({ stream, at: instant, ...(focus ? { focus } : {}) }));
  };

  const fields = load.kind === 'loaded' ? compareStates(load.answer).filter((f) => inFocus(f.path, focus)) : [];
  const changed = fields.filter((f) => f.changed).length;
  const title = translate('activityLog.travel.title', { stream });
  return (
    <Card sx={{ mt: 2 }} data-testid="time-travel">
      <Title title={title} />
      <CardContent>
        <Typography variant="h6">{title}</Typography>
        <Typography color="text.secondary" sx={{ mb: 2 }}>
          {translate('activityLog.travel.intro')}{' '}
          <MuiLink component={Link} to={`${basename}/activity?${new URLSearchParams({ aggregate: stream })}`} data-testid="time-travel-timeline">
            {translate('activityLog.travel.timeline')}
          </MuiLink>
        </Typography>
        <Box component="form" onSubmit={submit} sx={{ display: 'flex', gap: 1.5, alignItems: 'center', mb: 2 }}>
          <TextField
            size="small"
            type="datetime-local"
            label={translate('activityLog.travel.at')}
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
            fullWidth={false}
            sx={{ width: 280, m: 0 }}
            slotProps={{ inputLabel: { shrink: true }, htmlInput: { step: 1, 'data-testid': 'time-travel-at' } }}
          />
          <Button type="submit" variant="contained" data-testid="time-travel-show">
            {translate('activityLog.travel.show')}
          </Button>
          <FormControlLabel
            control={<Switch checked={changedOnly} onChange={(e) => setChangedOnly(e.target.checked)} data-testid="time-travel-changed-only" />}
            label={translate('activityLog.travel.changedOnly')}
          />
          {focus ? (
            <Chip
              label={translate('activityLog.travel.focus', { focus })}
              onDelete={() => setParams(new URLSearchParams({ stream, at }))}
              data-testid="time-travel-focus"
            />
          ) : null}
        </Box>
        {load.kind === 'loading' ? <LinearProgress /> : null}
        {load.kind === 'failed' ? <Alert severity="error">{translate('activityLog.travel.loadFailed', { message: load.message })}</Alert> : null}
        {load.kind === 'loaded' ? (
          <>
            <Typography color="text.secondary" sx={{ mb: 1 }} data-testid="time-travel-summary">
              {translate('activityLog.travel.revisions', { at: load.answer.revisionAt + 1, today: load.answer.revisionToday + 1 })}
              {' · '}
              {changed ? translate('activityLog.travel.changed', { smart_count: changed, count: changed }) : translate('activityLog.travel.unchanged')}
            </Typography>
            <Table size="small" data-testid="time-travel-table">
              <TableHead>
                <TableRow>
                  <TableCell>{translate('activityLog.travel.field')}</TableCell>
                  <TableCell>{translate('activityLog.travel.then', { at: dates.dateTime(load.answer.at) })}</TableCell>
                  <TableCell>{translate('activityLog.travel.today')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {fields
                  .filter((f) => f.changed || !changedOnly)
                  .map((f) => (
                    <TableRow
                      key={f.path}
                      data-testid="time-travel-field"
                      data-path={f.path}
                      data-changed={f.changed ? 'true' : 'false'}
                      sx={f.changed ? { bgcolor: 'warning.light', '& td': { fontWeight: 600 } } : undefined}
                    >
                      <TableCell sx={{ fontFamily: 'monospace' }}>{f.path}</TableCell>
                      <TableCell sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }} data-testid="time-travel-then">
                        {f.then}
                      </TableCell>
                      <TableCell sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }} data-testid="time-travel-now">
                        {f.now}
                      </TableCell>
                    </TableRow>
                  ))}
              </TableBody>
            </Table>
          </>
        ) : null}
      </CardContent>
    </Card>
  );
};
