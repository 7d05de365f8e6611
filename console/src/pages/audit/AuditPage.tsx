import DownloadIcon from '@mui/icons-material/Download';
import VerifiedUserIcon from '@mui/icons-material/VerifiedUser';
import { Alert, Button, Card, CardContent, LinearProgress, Stack, TextField, Typography } from '@mui/material';
import { useState } from 'react';
import { Title, useTranslate } from 'react-admin';
import { httpClient } from '../../data/dataProvider';
import { auditNotes, auditViewFor, exportUrl, type AuditVerification, type AuditView } from './audit';

/** The unsealed tail, a stopped sealer and the last anchor, in words. */
const Notes = ({ result }: { result: AuditVerification }) => {
  const translate = useTranslate();
  const notes = auditNotes(result);
  return (
    <>
      {notes.unsealed ? (
        <Alert severity="warning" sx={{ mt: 1 }} data-testid="audit-unsealed">
          {translate('console.audit.unsealed', { count: notes.unsealed.count, position: notes.unsealed.position })}
        </Alert>
      ) : null}
      {notes.sealerError ? (
        <Alert severity="error" sx={{ mt: 1 }} data-testid="audit-sealer-error">
          {translate('console.audit.sealerError', { message: notes.sealerError })}
        </Alert>
      ) : null}
      {notes.anchoredUpTo !== null ? (
        <Typography color="text.secondary" sx={{ mt: 1 }} data-testid="audit-anchored">
          {translate('console.audit.anchored', { position: notes.anchoredUpTo })}
        </Typography>
      ) : null}
    </>
  );
};

/** Verify the audit chain of the whole log, and download a range of it for offline verification. */
export const AuditPage = () => {
  const translate = useTranslate();
  const [view, setView] = useState<AuditView>({ kind: 'idle' });
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');

  const verify = async () => {
    setView({ kind: 'verifying' });
    try {
      const { json } = await httpClient('/api/admin/audit/verify');
      setView(auditViewFor(json));
    } catch (error) {
      setView({ kind: 'error', message: (error as Error).message });
    }
  };

  return (
    <Card sx={{ mt: 2 }} data-testid="audit">
      <Title title="console.audit.title" />
      <CardContent>
        <Typography color="text.secondary" sx={{ mb: 2 }}>
          {translate('console.audit.intro')}
        </Typography>
        <Button
          variant="contained"
          startIcon={<VerifiedUserIcon />}
          disabled={view.kind === 'verifying'}
          onClick={() => void verify()}
          data-testid="audit-verify"
        >
          {translate('console.audit.verify')}
        </Button>
        {view.kind === 'verifying' ? <LinearProgress sx={{ mt: 2 }} /> : null}
        {view.kind === 'intact' ? (
          <Alert severity="success" sx={{ mt: 2 }} data-testid="audit-intact">
            {translate('console.audit.intact', { events: view.result.events, position: view.result.checkedUpTo })}
          </Alert>
        ) : null}
        {view.kind === 'tampered' ? (
          <Alert severity="error" sx={{ mt: 2 }} data-testid="audit-tampered" data-position={view.result.firstMismatch ?? ''}>
            {translate('console.audit.tampered', {
              position: view.result.firstMismatch,
              reason: translate(`console.audit.reasons.${view.result.reason ?? 'changed'}`),
              checked: view.result.checkedUpTo,
            })}
          </Alert>
        ) : null}
        {view.kind === 'intact' || view.kind === 'tampered' ? <Notes result={view.result} /> : null}
        {view.kind === 'error' ? (
          <Alert severity="error" sx={{ mt: 2 }} data-testid="audit-error">
            {translate('console.audit.failed', { message: view.message })}
          </Alert>
        ) : null}
        <Typography variant="h6" sx={{ mt: 4, mb: 1 }}>
          {translate('console.audit.exportTitle')}
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 2 }}>
          {translate('console.audit.exportIntro')}
        </Typography>
        <Stack direction="row" sx={{ gap: 2, alignItems: 'center', flexWrap: 'wrap' }}>
          <TextField
            size="small"
            label={translate('console.audit.from')}
            value={from}
            onChange={(e) => setFrom(e.target.value)}
            slotProps={{ htmlInput: { inputMode: 'numeric' } }}
          />
          <TextField
            size="small"
            label={translate('console.audit.to')}
            value={to}
            onChange={(e) => setTo(e.target.value)}
            slotProps={{ htmlInput: { inputMode: 'numeric' } }}
          />
          <Button component="a" href={exportUrl(from, to)} download startIcon={<DownloadIcon />} data-testid="audit-export">
            {translate('console.audit.export')}
          </Button>
          <Button component="a" href="/.well-known/audit-key?keys=all" download="audit-keys.pem" data-testid="audit-key">
            {translate('console.audit.publicKey')}
          </Button>
        </Stack>
      </CardContent>
    </Card>
  );
};
