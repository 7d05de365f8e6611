import { Alert, Card, CardContent, Grid, Skeleton, Stack, Typography } from '@mui/material';
import { Title, useTranslate } from 'react-admin';
import { ADMIN_API } from '../../data/contractUrl';
import { httpClient } from '../../data/dataProvider';
import { useLoad } from '../../data/useLoad';
import { barWidths, byPlan, formatUsd, type Bar, type BillingDashboardData } from './billingDashboard';

const ROW = 28;

/** A horizontal bar chart in plain SVG: one row per plan, the value written at the bar's end. */
const BarChart = ({ bars, format, testId, label }: { bars: Bar[]; format: (v: number) => string; testId: string; label: string }) => {
  const translate = useTranslate();
  if (bars.length === 0) return <Typography color="text.secondary">{translate('console.billing.empty')}</Typography>;
  const widths = barWidths(bars);
  return (
    <svg role="img" aria-label={label} width="100%" height={bars.length * ROW} viewBox={`0 0 400 ${bars.length * ROW}`} data-testid={testId}>
      {bars.map((bar, i) => (
        <g key={bar.label} transform={`translate(0 ${i * ROW})`} data-testid={`${testId}-bar`}>
          <text x={0} y={ROW / 2 + 4} fontSize={12} fill="currentColor">
            {bar.label}
          </text>
          <rect x={120} y={6} height={ROW - 12} width={Math.max(1, ((widths[i] ?? 0) * 180) / 100)} rx={3} fill="#1976d2" />
          <text x={124 + ((widths[i] ?? 0) * 180) / 100} y={ROW / 2 + 4} fontSize={12} fill="currentColor">
            {format(bar.value)}
          </text>
        </g>
      ))}
    </svg>
  );
};

const Figure = ({ label, value, testId }: { label: string; value: number; testId: string }) => (
  <Card>
    <CardContent>
      <Typography color="text.secondary">{label}</Typography>
      <Typography variant="h4" component="p" data-testid={testId}>
        {value}
      </Typography>
    </CardContent>
  </Card>
);

/** Revenue by plan, active subscriptions by plan, and users in grace or unpaid. */
export const BillingDashboard = () => {
  const translate = useTranslate();
  const loaded = useLoad((signal) => httpClient(`${ADMIN_API}/billing/dashboard`, { signal }).then(({ json }) => json as BillingDashboardData), []);
  const data = loaded.data ?? null;
  const failed = loaded.error !== null;

  return (
    <Stack spacing={2} sx={{ mt: 2 }} data-testid="billing-dashboard">
      <Title title="console.billing.title" />
      {failed && <Alert severity="error">{translate('console.billing.loadFailed')}</Alert>}
      {!data && !failed && <Skeleton variant="rectangular" height={200} />}
      {data && (
        <Grid container spacing={2}>
          <Grid size={{ xs: 12, sm: 6, md: 3 }}>
            <Figure
              label={translate('console.billing.activeSubscriptions')}
              value={data.activeSubscriptions.reduce((n, s) => n + s.count, 0)}
              testId="billing-active-total"
            />
          </Grid>
          <Grid size={{ xs: 12, sm: 6, md: 3 }}>
            <Figure label={translate('console.billing.usersInGrace')} value={data.usersInGrace} testId="billing-in-grace" />
          </Grid>
          <Grid size={{ xs: 12, sm: 6, md: 3 }}>
            <Figure label={translate('console.billing.unpaidUsers')} value={data.unpaidUsers} testId="billing-unpaid" />
          </Grid>
          <Grid size={{ xs: 12, md: 6 }}>
            <Card>
              <CardContent>
                <Typography variant="h6" component="h2" gutterBottom>
                  {translate('console.billing.revenueByPlan')}
                </Typography>
                <BarChart
                  bars={byPlan(
                    data.revenueByPlan,
                    (r) => r.productName,
                    (r) => r.amount,
                  )}
                  format={formatUsd}
                  testId="billing-revenue"
                  label={translate('console.billing.revenueByPlan')}
                />
              </CardContent>
            </Card>
          </Grid>
          <Grid size={{ xs: 12, md: 6 }}>
            <Card>
              <CardContent>
                <Typography variant="h6" component="h2" gutterBottom>
                  {translate('console.billing.subscriptionsByPlan')}
                </Typography>
                <BarChart
                  bars={byPlan(
                    data.activeSubscriptions,
                    (r) => r.productName,
                    (r) => r.count,
                  )}
                  format={String}
                  testId="billing-subscriptions"
                  label={translate('console.billing.subscriptionsByPlan')}
                />
              </CardContent>
            </Card>
          </Grid>
        </Grid>
      )}
    </Stack>
  );
};
