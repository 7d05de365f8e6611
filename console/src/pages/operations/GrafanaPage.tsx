import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import { Alert, Button, Card, CardContent, Skeleton, Stack, Typography } from '@mui/material';
import { Title, useTranslate } from 'react-admin';
import { useLoad } from '../../data/useLoad';
import { operationsApi } from './operationsApi';

const load = (signal: AbortSignal) => operationsApi.grafana(signal);

/** The "Grafana dashboard" menu item: opens GRAFANA_URL when configured, else says how to enable it. */
export const GrafanaPage = () => {
  const translate = useTranslate();
  const { data, error } = useLoad(load, []);
  return (
    <Card sx={{ mt: 2 }} data-testid="grafana">
      <Title title="console.menu.grafana" />
      <CardContent>
        <Stack spacing={2}>
          <Typography variant="h6" component="h1">
            {translate('console.menu.grafana')}
          </Typography>
          {error ? <Alert severity="error">{translate('operations.dashboards.loadFailed')}</Alert> : null}
          {!data && !error ? <Skeleton width={240} height={40} /> : null}
          {data?.url ? (
            <>
              <Typography color="text.secondary">{translate('operations.grafana.configured')}</Typography>
              <div>
                <Button variant="contained" href={data.url} target="_blank" rel="noopener noreferrer" endIcon={<OpenInNewIcon />} data-testid="grafana-open">
                  {translate('operations.grafana.open')}
                </Button>
              </div>
            </>
          ) : null}
          {data && !data.url ? (
            <Alert severity="info" data-testid="grafana-not-configured">
              <Typography>{translate('operations.grafana.notConfigured')}</Typography>
              <Typography component="pre" sx={{ mt: 1, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', fontFamily: 'monospace' }}>
                {'METRICS_TOKEN=$(openssl rand -hex 24) docker compose up -d prometheus grafana\nGRAFANA_URL=http://localhost:3000/d/axel-drive'}
              </Typography>
            </Alert>
          ) : null}
        </Stack>
      </CardContent>
    </Card>
  );
};
