import { Alert, Button, Card, CardContent, Chip, Grid, Skeleton, Stack, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useCallback, useState } from 'react';
import { Title, useNotify, usePermissions, useTranslate } from 'react-admin';
import { Features, hasFeature } from '../../auth/access';
import { useLoad } from '../../data/useLoad';
import { autopayApi } from './autopayApi';
import { waitingReasonKey } from './waitingReasons';
import { barLayout, chartNumber, figuresIn, seriesIn, type Point } from './charts';
import { useDates } from '../../i18n/dates';

const CHART_WIDTH = 560;
const CHART_HEIGHT = 180;

/** A plain SVG bar chart with its values as text, so it reads without the picture too. */
export const BarChart = ({ title, points, testId }: { title: string; points: readonly Point[]; testId: string }) => {
  const bars = barLayout(points, CHART_WIDTH, CHART_HEIGHT);
  return (
    <Card data-testid={testId}>
      <CardContent>
        <Typography variant="subtitle1" gutterBottom>
          {title}
        </Typography>
        <svg viewBox={`0 0 ${CHART_WIDTH} ${CHART_HEIGHT + 36}`} width="100%" role="img" aria-label={title}>
          {bars.map((b) => (
            <g key={b.label}>
              <rect x={b.x} y={b.y} width={b.width} height={Math.max(b.height, 1)} fill="currentColor" opacity={0.7}>
                <title>{`${b.label}: ${b.value}`}</title>
              </rect>
              <text x={b.x + b.width / 2} y={CHART_HEIGHT + 14} fontSize={11} textAnchor="middle">
                {b.label.length > 12 ? `${b.label.slice(0, 11)}…` : b.label}
              </text>
              <text x={b.x + b.width / 2} y={CHART_HEIGHT + 30} fontSize={11} textAnchor="middle">
                {b.value}
              </text>
            </g>
          ))}
        </svg>
      </CardContent>
    </Card>
  );
};

const useAnswer = (load: () => Promise<Record<string, unknown>>, version = 0) => {
  const { data, error } = useLoad(load, [load, version]);
  return { answer: data ?? null, error };
};

/** How much "fill treasury" mints. */
const TREASURY_FILL_AMOUNT = '100';

/** Staff with admin:treasury:fill mint test AXEL to the treasury; on the development chain only. */
const FillTreasury = ({ onFilled }: { onFilled: () => void }) => {
  const translate = useTranslate();
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  const fill = async () => {
    setBusy(true);
    try {
      const { amount } = await autopayApi.fillTreasury(TREASURY_FILL_AMOUNT);
      notify('console.walletDashboard.filled', { type: 'success', messageArgs: { amount } });
      onFilled();
    } catch (e) {
      notify(e instanceof Error && e.message ? e.message : 'ra.notification.http_error', { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'center' } }}>
      <Button variant="contained" onClick={() => void fill()} disabled={busy} data-testid="wallet-dashboard-fill">
        {translate('console.walletDashboard.fill', { amount: TREASURY_FILL_AMOUNT })}
      </Button>
      <Typography variant="body2" color="text.secondary">
        {translate('console.walletDashboard.fillHelp')}
      </Typography>
    </Stack>
  );
};

const Figures = ({ answer, prefix }: { answer: unknown; prefix: string }) => {
  const translate = useTranslate();
  return (
    <Grid container spacing={2}>
      {figuresIn(answer).map((f) => (
        <Grid key={f.key} size={{ xs: 12, sm: 6, md: 3 }}>
          <Card>
            <CardContent>
              <Typography color="text.secondary" variant="body2">
                {translate(`${prefix}.fields.${f.key}`, { _: f.key })}
              </Typography>
              <Typography variant="h5" component="p" data-testid={`${prefix.split('.').pop()}-${f.key}`}>
                {f.value}
              </Typography>
            </CardContent>
          </Card>
        </Grid>
      ))}
    </Grid>
  );
};

const walletLoad = () => autopayApi.walletDashboard();
const waitingLoad = () => autopayApi.waitingReplenishments();

interface WaitingRow {
  checkoutId: string;
  email: string | null;
  userId: string;
  amount: string;
  paidAt: string | null;
  attempts: number;
  lastError: string | null;
  nextAttemptAt: string | null;
}

/** Paid replenishments whose tokens the treasury has not sent yet: retried on their own until it can. */
const WaitingReplenishments = ({ version }: { version: number }) => {
  const translate = useTranslate();
  const { answer, error } = useAnswer(waitingLoad, version);
  const rows = (Array.isArray(answer?.data) ? answer.data : []) as WaitingRow[];
  const dates = useDates();
  const when = (iso: string | null) => dates.dateTime(iso, '—');
  return (
    <Card data-testid="wallet-dashboard-waiting">
      <CardContent>
        <Typography variant="subtitle1" gutterBottom>
          {translate('console.walletDashboard.waitingTitle')}{' '}
          {answer && <Chip size="small" color={rows.length ? 'warning' : 'default'} label={rows.length} data-testid="wallet-dashboard-waiting-count" />}
        </Typography>
        {error && <Alert severity="error">{translate('console.walletDashboard.loadFailed', { message: error })}</Alert>}
        {answer && rows.length === 0 && <Typography color="text.secondary">{translate('console.walletDashboard.waitingNone')}</Typography>}
        {rows.length > 0 && (
          <>
            <Typography variant="body2" color="text.secondary" gutterBottom>
              {translate('console.walletDashboard.waitingHelp')}
            </Typography>
            <Table size="small">
              <TableHead>
                <TableRow>
                  <TableCell>{translate('console.walletDashboard.waitingBuyer')}</TableCell>
                  <TableCell align="right">{translate('console.walletDashboard.waitingAmount')}</TableCell>
                  <TableCell>{translate('console.walletDashboard.waitingPaidAt')}</TableCell>
                  <TableCell align="right">{translate('console.walletDashboard.waitingAttempts')}</TableCell>
                  <TableCell>{translate('console.walletDashboard.waitingError')}</TableCell>
                  <TableCell>{translate('console.walletDashboard.waitingNext')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {rows.map((r) => (
                  <TableRow key={r.checkoutId} data-testid="wallet-dashboard-waiting-row">
                    <TableCell>{r.email ?? r.userId}</TableCell>
                    <TableCell align="right">{r.amount}</TableCell>
                    <TableCell>{when(r.paidAt)}</TableCell>
                    <TableCell align="right">{r.attempts}</TableCell>
                    <TableCell data-testid="wallet-dashboard-waiting-reason">{r.lastError ? translate(waitingReasonKey(r.lastError)!) : '—'}</TableCell>
                    <TableCell>{when(r.nextAttemptAt)}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </>
        )}
      </CardContent>
    </Card>
  );
};
const accountsLoad = () => autopayApi.axelAccountsDashboard();

/** The chain, the treasury and the wallets (`/wallet/v1/admin/dashboard/`). */
export const WalletDashboard = () => {
  const translate = useTranslate();
  const { permissions } = usePermissions();
  const [version, setVersion] = useState(0);
  const reload = useCallback(() => setVersion((v) => v + 1), []);
  const { answer, error } = useAnswer(walletLoad, version);
  const treasury = (answer?.treasury ?? {}) as Record<string, unknown>;
  const masternodes = (answer?.masternodes ?? {}) as Record<string, unknown>;
  const points = (pairs: [string, unknown][]): Point[] => pairs.map(([label, v]) => ({ label, value: chartNumber(v) ?? 0 }));
  return (
    <Stack spacing={2} sx={{ mt: 2 }} data-testid="wallet-dashboard">
      <Title title="console.walletDashboard.title" />
      {error && <Alert severity="error">{translate('console.walletDashboard.loadFailed', { message: error })}</Alert>}
      {!answer && !error && <Skeleton variant="rectangular" height={160} />}
      {answer && (
        <>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <Typography variant="h6">{String(answer.chain ?? '')}</Typography>
            {answer.development === true && (
              <Chip color="warning" label={translate('console.walletDashboard.development')} data-testid="wallet-dashboard-dev" />
            )}
          </Stack>
          {typeof treasury.address === 'string' && (
            <Typography sx={{ fontFamily: 'monospace' }} data-testid="wallet-dashboard-treasury">
              {translate('console.walletDashboard.treasury')}: {treasury.address}
            </Typography>
          )}
          {answer.development === true && hasFeature(permissions, Features.treasuryFill) && <FillTreasury onFilled={reload} />}
          <Figures answer={answer} prefix="console.walletDashboard" />
          <Grid container spacing={2}>
            <Grid size={{ xs: 12, md: 6 }}>
              <BarChart
                title={translate('console.walletDashboard.treasuryChart')}
                points={points([
                  [translate('console.walletDashboard.confirmed'), treasury.confirmed],
                  [translate('console.walletDashboard.unconfirmed'), treasury.unconfirmed],
                ])}
                testId="wallet-dashboard-treasury-chart"
              />
            </Grid>
            <Grid size={{ xs: 12, md: 6 }}>
              <BarChart
                title={translate('console.walletDashboard.masternodesChart')}
                points={points([
                  [translate('console.walletDashboard.total'), masternodes.total],
                  [translate('console.walletDashboard.enabled'), masternodes.enabled],
                ])}
                testId="wallet-dashboard-masternodes-chart"
              />
            </Grid>
          </Grid>
          <WaitingReplenishments version={version} />
        </>
      )}
    </Stack>
  );
};

/** The AXEL accounts (`/admin/axel-accounts/dashboard/`): its figures and every series it sends, as charts. */
export const AxelAccountsDashboard = () => {
  const translate = useTranslate();
  const { answer, error } = useAnswer(accountsLoad);
  return (
    <Stack spacing={2} sx={{ mt: 2 }} data-testid="axel-accounts-dashboard">
      <Title title="console.axelAccounts.title" />
      {error && <Alert severity="error">{translate('console.axelAccounts.loadFailed', { message: error })}</Alert>}
      {!answer && !error && <Skeleton variant="rectangular" height={160} />}
      {answer && (
        <>
          <Figures answer={answer} prefix="console.axelAccounts" />
          <Grid container spacing={2}>
            {seriesIn(answer).map((s) => (
              <Grid key={s.name} size={{ xs: 12, md: 6 }}>
                <BarChart title={translate(`console.axelAccounts.series.${s.name}`, { _: s.name })} points={s.points} testId={`axel-accounts-${s.name}`} />
              </Grid>
            ))}
          </Grid>
        </>
      )}
    </Stack>
  );
};
