import { Alert, Dialog, DialogActions, DialogContent, DialogTitle, Stack, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useState } from 'react';
import { Button, useNotify, useRefresh, useTranslate, type Identifier } from 'react-admin';
import { autopayApi, type ImportResult } from './autopayApi';
import { csvFileProblem } from './programForm';
import { messageKey } from './programRules';

type Step = { kind: 'choose' } | { kind: 'result'; result: ImportResult } | { kind: 'confirmEmpty'; result: ImportResult };

/**
 * CSV import of payees: a file must be chosen; the server validates every row and names the row
 * and field of each error; when nothing was imported the staff member confirms going on without
 * payees or picks another file.
 */
export const ImportDialog = ({ programId, open, onClose }: { programId: Identifier; open: boolean; onClose: () => void }) => {
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [step, setStep] = useState<Step>({ kind: 'choose' });

  const close = () => {
    setFile(null);
    setProblem(null);
    setStep({ kind: 'choose' });
    onClose();
  };

  const upload = async () => {
    const issue = csvFileProblem(file);
    if (issue || !file) {
      setProblem(issue);
      return;
    }
    setProblem(null);
    setBusy(true);
    try {
      const result = await autopayApi.importCsv(programId, await file.text());
      refresh();
      if (result.errors.length > 0) setStep({ kind: 'result', result });
      else if (result.imported === 0) setStep({ kind: 'confirmEmpty', result });
      else {
        notify('resources.auto-pay.import.done', { type: 'success', messageArgs: { count: result.imported } });
        close();
      }
    } catch (error) {
      notify(error instanceof Error && error.message ? error.message : 'ra.notification.http_error', { type: 'error' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open={open} onClose={close} maxWidth="md" fullWidth aria-labelledby="autopay-import-title" data-testid="autopay-import-dialog">
      <DialogTitle id="autopay-import-title">{translate('resources.auto-pay.import.title')}</DialogTitle>
      <DialogContent>
        {step.kind === 'choose' && (
          <Stack spacing={2}>
            <Typography color="text.secondary">{translate('resources.auto-pay.import.hint')}</Typography>
            <input
              type="file"
              accept=".csv,text/csv"
              aria-label={translate('resources.auto-pay.import.file')}
              onChange={(e) => setFile(e.target.files?.[0] ?? null)}
              data-testid="autopay-import-file"
            />
            {problem && (
              <Alert severity="error" data-testid="autopay-import-problem">
                {translate(problem)}
              </Alert>
            )}
          </Stack>
        )}
        {step.kind === 'result' && (
          <Stack spacing={2}>
            <Alert severity="error" data-testid="autopay-import-failed">
              {translate('resources.auto-pay.import.failed', { count: step.result.errors.length, imported: step.result.imported })}
            </Alert>
            <Table size="small" data-testid="autopay-import-errors">
              <TableHead>
                <TableRow>
                  <TableCell>{translate('resources.auto-pay.import.row')}</TableCell>
                  <TableCell>{translate('resources.auto-pay.import.field')}</TableCell>
                  <TableCell>{translate('resources.auto-pay.import.message')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {step.result.errors.map((e, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: a read-only list, replaced whole when it changes
                  <TableRow key={`${e.row}-${e.field}-${i}`} data-testid="autopay-import-error">
                    <TableCell>{e.row}</TableCell>
                    <TableCell>{translate(`resources.auto-pay.payeeFields.${e.field}`, { _: e.field })}</TableCell>
                    <TableCell>{translate(messageKey(e.message), { _: e.message })}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </Stack>
        )}
        {step.kind === 'confirmEmpty' && (
          <Alert severity="warning" data-testid="autopay-import-empty">
            {translate('resources.auto-pay.import.nothingImported')}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        {step.kind === 'choose' && (
          <>
            <Button label="ra.action.cancel" onClick={close} />
            <Button
              label="resources.auto-pay.import.upload"
              variant="contained"
              disabled={busy}
              onClick={() => void upload()}
              data-testid="autopay-import-upload"
            />
          </>
        )}
        {step.kind === 'result' && (
          <>
            <Button label="resources.auto-pay.import.chooseAnother" onClick={() => setStep({ kind: 'choose' })} data-testid="autopay-import-again" />
            <Button label="ra.action.close" onClick={close} />
          </>
        )}
        {step.kind === 'confirmEmpty' && (
          <>
            <Button label="resources.auto-pay.import.chooseAnother" onClick={() => setStep({ kind: 'choose' })} data-testid="autopay-import-again" />
            <Button label="resources.auto-pay.import.proceed" variant="contained" onClick={close} data-testid="autopay-import-proceed" />
          </>
        )}
      </DialogActions>
    </Dialog>
  );
};
