import { Card, CardContent, Grid, Link as MuiLink, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { Title, useBasename, useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import { useLoad } from '../../data/useLoad';
import { ChartCard, DashboardFrame, FigureCard } from './DashboardParts';
import { eventsOf, monthWindow, readableBytes, userPage } from './drilldown';
import { operationsApi } from './operationsApi';

const load = (signal: AbortSignal) => operationsApi.websiteHosting(signal);

/**
 * AXEL website hosting: what the product serves to visitors. Shares live and revoked, the bytes
 * they publish, their opens and downloads, shares created per month, Secure Fetch links by status
 * and payment, and who shares most; each figure opens the events or the user behind it.
 */
export const WebsiteHostingDashboard = () => {
  const translate = useTranslate();
  const basename = useBasename();
  const { data, error } = useLoad(load, []);
  const t = (key: string) => translate(`operations.hosting.${key}`);
  return (
    <Card sx={{ mt: 2 }}>
      <Title title="operations.hosting.title" />
      <CardContent>
        <Typography variant="h6" component="h1" gutterBottom>
          {t('title')}
        </Typography>
        <DashboardFrame error={error} loading={!data} testId="hosting-dashboard">
          {data ? (
            <>
              <FigureCard label={t('activeShares')} value={data.shares.active} to={eventsOf(basename, ['ShareCreated'])} testId="hosting-active" />
              <FigureCard
                label={t('bytesShared')}
                value={readableBytes(data.shares.bytesShared)}
                to={eventsOf(basename, ['ShareCreated', 'ShareEdited'])}
                testId="hosting-bytes"
              />
              <FigureCard label={t('opens')} value={data.access.opens} to={eventsOf(basename, ['ShareOpened'])} testId="hosting-opens" />
              <FigureCard label={t('downloads')} value={data.access.downloads} to={eventsOf(basename, ['ShareDownloaded'])} testId="hosting-downloads" />
              <FigureCard label={t('revokedShares')} value={data.shares.revoked} to={eventsOf(basename, ['ShareRevoked'])} testId="hosting-revoked" />
              <FigureCard
                label={t('secureFetchLinks')}
                value={data.secureFetch.links}
                to={eventsOf(basename, ['SecureFetchCreated'])}
                testId="hosting-sf-links"
              />
              <FigureCard label={t('secureFetchPaid')} value={data.secureFetch.paid} to={eventsOf(basename, ['SecureFetchPaid'])} testId="hosting-sf-paid" />
              <FigureCard
                label={t('secureFetchBytes')}
                value={readableBytes(data.secureFetch.bytesReceived)}
                to={eventsOf(basename, ['SecureFetchSubmitted'])}
                testId="hosting-sf-bytes"
              />
              <ChartCard
                title={t('sharesByMonth')}
                testId="hosting-by-month"
                points={data.sharesByMonth.map((m) => ({
                  label: m.month,
                  value: m.created,
                  to: eventsOf(basename, ['ShareCreated'], monthWindow(m.month) ?? {}),
                }))}
              />
              <ChartCard
                title={t('sharesByKind')}
                kind="pie"
                testId="hosting-by-kind"
                points={data.shares.byKind.map((k) => ({ label: k.kind, value: k.count, to: eventsOf(basename, ['ShareCreated']) }))}
              />
              <ChartCard
                title={t('secureFetchByStatus')}
                kind="pie"
                testId="hosting-sf-status"
                points={data.secureFetch.byStatus.map((s) => ({
                  label: s.status,
                  value: s.count,
                  to: eventsOf(basename, ['SecureFetchCreated', 'SecureFetchSubmitted', 'SecureFetchPaid']),
                }))}
              />
              <Grid size={{ xs: 12, md: 6 }}>
                <Card sx={{ height: '100%' }}>
                  <CardContent sx={{ overflowX: 'auto' }}>
                    <Typography variant="subtitle1" gutterBottom>
                      {t('topOwners')}
                    </Typography>
                    <Table size="small" data-testid="hosting-top-owners">
                      <TableHead>
                        <TableRow>
                          <TableCell>{t('owner')}</TableCell>
                          <TableCell align="right">{t('shares')}</TableCell>
                          <TableCell align="right">{t('opens')}</TableCell>
                        </TableRow>
                      </TableHead>
                      <TableBody>
                        {data.topOwners.map((o) => (
                          <TableRow key={o.userId}>
                            <TableCell sx={{ overflowWrap: 'anywhere' }}>
                              <MuiLink component={Link} to={userPage(basename, o.userId)} underline="hover">
                                {o.email ?? o.userId}
                              </MuiLink>
                            </TableCell>
                            <TableCell align="right">{o.shares}</TableCell>
                            <TableCell align="right">{o.opens}</TableCell>
                          </TableRow>
                        ))}
                      </TableBody>
                    </Table>
                  </CardContent>
                </Card>
              </Grid>
            </>
          ) : null}
        </DashboardFrame>
      </CardContent>
    </Card>
  );
};
