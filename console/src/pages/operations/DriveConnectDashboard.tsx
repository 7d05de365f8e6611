import { Card, CardContent, Typography } from '@mui/material';
import { Title, useBasename, useTranslate } from 'react-admin';
import { useLoad } from '../../data/useLoad';
import { ChartCard, DashboardFrame, FigureCard } from './DashboardParts';
import { daysBefore, eventsOf, readableBytes, usersWhere } from './drilldown';
import { operationsApi } from './operationsApi';

const load = (signal: AbortSignal) => operationsApi.driveConnect(signal);

/**
 * AXEL Drive Connect: how accounts connect to the product. Connected CloudLockers and every
 * storage type with its bytes, the app each account signed up with, who signed in lately, second
 * factors in use, and accounts with database access; each figure opens the users or events behind it.
 */
export const DriveConnectDashboard = () => {
  const translate = useTranslate();
  const basename = useBasename();
  const { data, error } = useLoad(load, []);
  const t = (key: string) => translate(`operations.connect.${key}`);
  const now = new Date();
  return (
    <Card sx={{ mt: 2 }}>
      <Title title="operations.connect.title" />
      <CardContent>
        <Typography variant="h6" component="h1" gutterBottom>
          {t('title')}
        </Typography>
        <DashboardFrame error={error} loading={!data} testId="connect-dashboard">
          {data ? (
            <>
              <FigureCard label={t('cloudLockers')} value={data.cloudLockers} to={eventsOf(basename, ['StorageOpened'])} testId="connect-cloudlockers" />
              <FigureCard
                label={t('signedInDay')}
                value={data.signIns.day}
                to={eventsOf(basename, ['SignInSucceeded'], { from: daysBefore(now, 1) })}
                testId="connect-signins-day"
              />
              <FigureCard
                label={t('signedInWeek')}
                value={data.signIns.week}
                to={eventsOf(basename, ['SignInSucceeded'], { from: daysBefore(now, 7) })}
                testId="connect-signins-week"
              />
              <FigureCard label={t('dbsAccess')} value={data.dbsAccess} to={`${basename}/databases`} testId="connect-dbs" />
              <ChartCard
                title={t('accountsByApp')}
                kind="pie"
                testId="connect-apps"
                points={data.accountsByApp.map((a) => ({ label: a.app, value: a.count, to: usersWhere(basename, { registrationApp: a.app }) }))}
              />
              <ChartCard
                title={t('storagesByType')}
                testId="connect-storages"
                points={data.storagesByType.map((s) => ({
                  label: `${translate(`operations.connect.storageTypes.${s.type}`, { _: s.type })} (${readableBytes(s.usedBytes)})`,
                  value: s.count,
                  to: eventsOf(basename, ['StorageOpened']),
                }))}
              />
              <ChartCard
                title={t('twoFactor')}
                kind="pie"
                testId="connect-two-factor"
                points={data.twoFactor.map((m) => ({ label: m.method, value: m.count, to: eventsOf(basename, ['TwoFactorEnabled']) }))}
              />
              <FigureCard
                label={t('signedInMonth')}
                value={data.signIns.month}
                to={eventsOf(basename, ['SignInSucceeded'], { from: daysBefore(now, 30) })}
                testId="connect-signins-month"
              />
            </>
          ) : null}
        </DashboardFrame>
      </CardContent>
    </Card>
  );
};
