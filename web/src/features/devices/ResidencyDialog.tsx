import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useLoad } from '../../components/useLoad';
import { devicesApi } from './devices.api';
import { placesOfFile, totalLines } from './residency.format';

/** "Where my files are": the residency report's totals per region and its first page of files (100). */
export const ResidencyDialog = ({ userId, open, onClose }: { userId: string; open: boolean; onClose: () => void }) => {
  const { t, i18n } = useTranslation();
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'));
  const loaded = useLoad(() => (open ? devicesApi.residency(userId) : Promise.resolve(null)), [userId, open]);
  const report = loaded.data;
  const place = (key: string) => t(`devices.region.report.places.${key}`);

  return (
    <Dialog open={open} onClose={onClose} fullScreen={phone} fullWidth maxWidth="md" data-testid="residency-dialog">
      <DialogTitle>{t('devices.region.report.title')}</DialogTitle>
      <DialogContent>
        {loaded.loading && <LinearProgress aria-label={t('common.loading')} />}
        <ErrorAlert error={loaded.error} testId="residency-error" />
        {report && (
          <Stack spacing={2}>
            <Typography color="text.secondary">{t('devices.region.report.keepsTheirs')}</Typography>
            {!report.regionsConfigured && (
              <Alert severity="info" data-testid="residency-home-only">
                {t('devices.region.report.homeOnly')}
              </Alert>
            )}
            <Box component="section" aria-label={t('devices.region.report.totals')}>
              <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600, mb: 1 }}>
                {t('devices.region.report.totals')}
              </Typography>
              {report.totals.length === 0 ? (
                <Typography data-testid="residency-empty">{t('devices.region.report.empty')}</Typography>
              ) : (
                <Stack spacing={1}>
                  {totalLines(report, i18n.language).map((line) => (
                    <Paper key={line.recorded} variant="outlined" sx={{ p: 1.5 }} data-testid="residency-total" data-region={line.recorded}>
                      <Typography sx={{ fontWeight: 600 }}>{place(line.recorded)}</Typography>
                      <Typography variant="body2" color="text.secondary">
                        {t('devices.region.report.totalLine', { files: line.files, chunks: line.chunks, size: line.size })}
                      </Typography>
                      <Typography variant="body2" color="text.secondary">
                        {t('devices.region.report.keptIn', { place: place(line.keptIn) })}
                      </Typography>
                    </Paper>
                  ))}
                </Stack>
              )}
            </Box>
            {report.data.length > 0 && (
              <Box component="section" aria-label={t('devices.region.report.files')}>
                <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600, mb: 1 }}>
                  {report.totalCount > report.data.length
                    ? t('devices.region.report.firstFiles', { shown: report.data.length, count: report.totalCount })
                    : t('devices.region.report.files')}
                </Typography>
                <Stack spacing={1}>
                  {report.data.map((file) => {
                    const { places, missing } = placesOfFile(file);
                    return (
                      <Paper key={file.id} variant="outlined" sx={{ p: 1.5 }} data-testid="residency-file" data-name={file.name}>
                        <Typography sx={{ fontWeight: 600, wordBreak: 'break-word' }}>{file.name}</Typography>
                        <Typography variant="body2" color="text.secondary">
                          {t('devices.region.report.recorded', { place: place(file.region ?? 'home') })}
                        </Typography>
                        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5, mt: 0.5 }}>
                          {places.map((p) => (
                            <Chip
                              key={p.place}
                              size="small"
                              data-testid="residency-place"
                              data-place={p.place}
                              label={t('devices.region.report.chunksOn', { place: place(p.place), chunks: p.chunks, shards: p.shards })}
                            />
                          ))}
                          {missing > 0 && <Chip size="small" color="error" label={t('devices.region.report.missing', { count: missing })} />}
                        </Box>
                      </Paper>
                    );
                  })}
                </Stack>
              </Box>
            )}
          </Stack>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} data-testid="residency-close">
          {t('devices.region.report.close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
};
