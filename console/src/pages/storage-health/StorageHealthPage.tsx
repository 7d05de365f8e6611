import RefreshIcon from '@mui/icons-material/Refresh';
import { Alert, Button, Card, CardContent, Chip, LinearProgress, Stack, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useCallback, useEffect, useState } from 'react';
import { Title, useTranslate } from 'react-admin';
import { fetchBlobHealth, formatBytes, reasonMessage, scrubLevel, shardStatus, type BlobHealth, type HealthLevel } from './storageHealth';
import { useDates } from '../../i18n/dates';

const levelColor: Record<HealthLevel, 'success' | 'warning' | 'error'> = { ok: 'success', warning: 'warning', error: 'error' };

type View = { kind: 'loading' } | { kind: 'error'; message: string } | { kind: 'loaded'; health: BlobHealth };

/** Staff: each blob shard's chunks, bytes and free disk, and what the last scrub checked, repaired and lost. */
export const StorageHealthPage = () => {
  const translate = useTranslate();
  const dates = useDates();
  const [view, setView] = useState<View>({ kind: 'loading' });
  const load = useCallback(async () => {
    try {
      setView({ kind: 'loaded', health: await fetchBlobHealth() });
    } catch (error) {
      setView({ kind: 'error', message: (error as Error).message });
    }
  }, []);
  useEffect(() => {
    void load();
  }, [load]);
  const t = (key: string, options?: Record<string, unknown>) => translate(`console.storageHealth.${key}`, options);

  return (
    <Card sx={{ mt: 2 }} data-testid="storage-health">
      <Title title="console.storageHealth.title" />
      <CardContent>
        <Stack direction="row" sx={{ mb: 2, justifyContent: 'space-between', alignItems: 'center', gap: 2 }}>
          <Typography color="text.secondary">{t('intro')}</Typography>
          <Button startIcon={<RefreshIcon />} onClick={() => void load()} data-testid="storage-health-reload">
            {t('reload')}
          </Button>
        </Stack>
        {view.kind === 'loading' ? <LinearProgress /> : null}
        {view.kind === 'error' ? <Alert severity="error">{t('loadFailed', { message: view.message })}</Alert> : null}
        {view.kind === 'loaded' ? (
          <Stack sx={{ gap: 3 }}>
            <Typography data-testid="storage-health-summary">
              {t('summary', { adapter: t(`adapters.${view.health.adapter}`), replicas: view.health.replicas, node: view.health.nodeId })}
            </Typography>
            {view.health.status === 'degraded' ? (
              <Alert severity="error" data-testid="storage-health-degraded">
                {t('degraded')}
                <ul style={{ margin: 0, paddingInlineStart: '1.25rem' }}>
                  {(view.health.reasons ?? []).map((reason, i) => {
                    const { key, values } = reasonMessage(reason);
                    // biome-ignore lint/suspicious/noArrayIndexKey: the reasons are a read-only list, replaced whole on every refresh
                    return <li key={i}>{t(key, values)}</li>;
                  })}
                </ul>
              </Alert>
            ) : view.health.status === 'ok' ? (
              <Alert severity="success" data-testid="storage-health-ok">
                {t('healthy')}
              </Alert>
            ) : null}
            <Table size="small" data-testid="storage-health-shards">
              <TableHead>
                <TableRow>
                  {['shard', 'chunks', 'bytes', 'free', 'status'].map((name) => (
                    <TableCell key={name}>{t(`fields.${name}`)}</TableCell>
                  ))}
                </TableRow>
              </TableHead>
              <TableBody>
                {view.health.shards.map((shard) => (
                  <TableRow key={shard.shard}>
                    <TableCell sx={{ fontFamily: 'monospace' }}>{shard.shard}</TableCell>
                    <TableCell>{shard.chunks}</TableCell>
                    <TableCell>{formatBytes(shard.bytes)}</TableCell>
                    <TableCell>{shard.freeBytes === null ? '—' : formatBytes(shard.freeBytes)}</TableCell>
                    <TableCell>
                      <Chip size="small" color={levelColor[shardStatus(shard)]} label={t(`levels.${shardStatus(shard)}`)} />
                      {shard.problem ? (
                        <Typography variant="body2" color="error" component="span" sx={{ ml: 1 }}>
                          {shard.problem}
                        </Typography>
                      ) : null}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
            <Stack sx={{ gap: 1 }} data-testid="storage-health-scrub">
              <Typography variant="h6">{t('lastScrub')}</Typography>
              {view.health.lastScrub ? (
                <>
                  <Stack direction="row" sx={{ gap: 1, alignItems: 'center' }}>
                    <Chip size="small" color={levelColor[scrubLevel(view.health.lastScrub)]} label={t(`levels.${scrubLevel(view.health.lastScrub)}`)} />
                    <Typography>
                      {t('scrubSummary', {
                        finishedAt: dates.dateTime(view.health.lastScrub.finishedAt),
                        checked: view.health.lastScrub.checked,
                        repaired: view.health.lastScrub.repaired,
                        lost: view.health.lastScrub.lost,
                        unreferenced: view.health.lastScrub.unreferenced ?? 0,
                      })}
                    </Typography>
                  </Stack>
                  {view.health.lastScrub.lostChunks.length ? (
                    <Alert severity="error">
                      {t('lostChunks')}
                      <Typography component="pre" sx={{ fontFamily: 'monospace', fontSize: 12, whiteSpace: 'pre-wrap', m: 0 }}>
                        {view.health.lastScrub.lostChunks.join('\n')}
                      </Typography>
                    </Alert>
                  ) : null}
                </>
              ) : (
                <Alert severity="info">{t('noScrub')}</Alert>
              )}
            </Stack>
            {view.health.faults?.length ? (
              <Stack sx={{ gap: 1 }} data-testid="storage-health-faults">
                <Typography variant="h6">{t('faults')}</Typography>
                <Table size="small">
                  <TableHead>
                    <TableRow>
                      {['at', 'kind', 'shard', 'detail', 'chunk', 'file'].map((name) => (
                        <TableCell key={name}>{t(`faultFields.${name}`)}</TableCell>
                      ))}
                    </TableRow>
                  </TableHead>
                  <TableBody>
                    {view.health.faults.map((fault, i) => (
                      // biome-ignore lint/suspicious/noArrayIndexKey: the faults are a read-only list, replaced whole on every refresh
                      <TableRow key={i}>
                        <TableCell>{dates.dateTime(fault.at)}</TableCell>
                        <TableCell>{t(`faultKinds.${fault.kind}`)}</TableCell>
                        <TableCell sx={{ fontFamily: 'monospace' }}>{fault.shard ?? '—'}</TableCell>
                        <TableCell>{fault.detail}</TableCell>
                        <TableCell sx={{ fontFamily: 'monospace', fontSize: 12 }}>{fault.cid ?? '—'}</TableCell>
                        <TableCell sx={{ fontFamily: 'monospace', fontSize: 12 }}>{fault.itemId ?? '—'}</TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              </Stack>
            ) : null}
            <Stack sx={{ gap: 1 }} data-testid="storage-health-collection">
              <Typography variant="h6">{t('lastCollection')}</Typography>
              {view.health.lastCollection ? (
                <Typography>
                  {view.health.lastCollection.skipped
                    ? t('collectionSkipped', { finishedAt: dates.dateTime(view.health.lastCollection.finishedAt), reason: view.health.lastCollection.skipped })
                    : t('collectionSummary', { ...view.health.lastCollection, finishedAt: dates.dateTime(view.health.lastCollection.finishedAt) })}
                </Typography>
              ) : (
                <Alert severity="info">{t('noCollection')}</Alert>
              )}
            </Stack>
          </Stack>
        ) : null}
      </CardContent>
    </Card>
  );
};
