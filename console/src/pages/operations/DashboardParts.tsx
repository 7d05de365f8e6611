import { Alert, Card, CardContent, Grid, Link as MuiLink, List, ListItem, Skeleton, Stack, Typography } from '@mui/material';
import { BarChart } from '@mui/x-charts/BarChart';
import { PieChart } from '@mui/x-charts/PieChart';
import type { ReactNode } from 'react';
import { useTranslate } from 'react-admin';
import { Link, useNavigate } from 'react-router-dom';

/** One number, its label, and the page of the users or events behind it. */
export const FigureCard = ({ label, value, to, testId }: { label: string; value: ReactNode; to: string; testId: string }) => (
  <Grid size={{ xs: 12, sm: 6, md: 3 }}>
    <Card sx={{ height: '100%' }}>
      <CardContent>
        <Typography color="text.secondary" variant="body2">
          {label}
        </Typography>
        <MuiLink component={Link} to={to} variant="h5" underline="hover" data-testid={testId}>
          {value}
        </MuiLink>
      </CardContent>
    </Card>
  </Grid>
);

export interface ChartPoint {
  readonly label: string;
  readonly value: number;
  /** Where the bar or slice leads. */
  readonly to: string;
}

/**
 * A chart of a few figures (bars or a pie) and the same figures as links under it: a click on a
 * bar, a slice or a line opens the users or events behind it, and the figures read without the picture.
 */
export const ChartCard = ({ title, points, kind = 'bar', testId }: { title: string; points: readonly ChartPoint[]; kind?: 'bar' | 'pie'; testId: string }) => {
  const navigate = useNavigate();
  const translate = useTranslate();
  const open = (index: number | undefined) => {
    const point = index === undefined ? undefined : points[index];
    if (point) navigate(point.to);
  };
  return (
    <Grid size={{ xs: 12, md: 6 }}>
      <Card data-testid={testId} sx={{ height: '100%' }}>
        <CardContent>
          <Typography variant="subtitle1" gutterBottom>
            {title}
          </Typography>
          {points.length === 0 ? (
            <Typography color="text.secondary" data-testid={`${testId}-empty`}>
              {translate('operations.dashboards.nothingYet')}
            </Typography>
          ) : kind === 'pie' ? (
            <PieChart
              height={200}
              series={[{ data: points.map((p, i) => ({ id: i, value: p.value, label: p.label })), innerRadius: 40 }]}
              onItemClick={(_event, item) => open(item.dataIndex)}
            />
          ) : (
            <BarChart
              height={220}
              xAxis={[{ scaleType: 'band', data: points.map((p) => p.label) }]}
              series={[{ data: points.map((p) => p.value), label: title }]}
              hideLegend
              onItemClick={(_event, item) => open(item.dataIndex)}
            />
          )}
          <List dense disablePadding>
            {points.map((p) => (
              <ListItem key={p.label} disableGutters sx={{ justifyContent: 'space-between', gap: 2 }}>
                <MuiLink component={Link} to={p.to} underline="hover" sx={{ overflowWrap: 'anywhere' }}>
                  {p.label}
                </MuiLink>
                <Typography component="span" data-testid={`${testId}-${p.label}`}>
                  {p.value}
                </Typography>
              </ListItem>
            ))}
          </List>
        </CardContent>
      </Card>
    </Grid>
  );
};

/** Loading, failed, or the page's figures. */
export const DashboardFrame = ({ error, loading, children, testId }: { error: string | null; loading: boolean; children: ReactNode; testId: string }) => {
  const translate = useTranslate();
  if (error) return <Alert severity="error">{translate('operations.dashboards.loadFailed')}</Alert>;
  if (loading) return <Skeleton variant="rectangular" height={240} data-testid={`${testId}-loading`} />;
  return (
    <Stack spacing={2} data-testid={testId}>
      <Grid container spacing={2}>
        {children}
      </Grid>
    </Stack>
  );
};
