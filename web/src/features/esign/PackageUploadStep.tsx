import CloudUploadOutlined from '@mui/icons-material/CloudUploadOutlined';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import FolderOpenOutlined from '@mui/icons-material/FolderOpenOutlined';
import PictureAsPdfOutlined from '@mui/icons-material/PictureAsPdfOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { toApiError, type NormalisedError } from '../../api/errors';
import { ErrorAlert } from '../../components/ErrorAlert';
import { translateFieldError } from '../../components/i18nHelpers';
import { useLoad } from '../../components/useLoad';
import { useSession } from '../../session/store';
import { filesApi, type Item } from '../files/files.api';
import { esignApi } from './esign.api';
import { isPdf, packageFormSchema, type PackageForm } from './esign.rules';
import { uploadToStorage } from './esign.upload';
import { StoragePdfPicker } from './StoragePdfPicker';
import { draftPasswords, WizardSteps } from './WizardSteps';

type PickedDoc = { key: string; name: string } & ({ from: 'storage'; item: Item } | { from: 'device'; file: File });

const useOwnStorageId = (userId: string) =>
  useLoad(userId ? () => filesApi.storages(userId).then((all) => (all.find((s) => s.type === 'online') ?? all[0])?.id ?? null) : null, [userId]).data ?? null;

/**
 * Step 1 (`/esigns/package/upload`, `/esigns/edit/1/:packageId`): the package's name, message and
 * optional password, and its PDFs, picked from storage or uploaded from the device. A new package
 * is created as a draft when the owner goes on to step 2.
 */
export const PackageUploadStep = ({ packageId }: { packageId?: string }) => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { user } = useSession();
  const userId = user?.id ?? '';
  const storageId = useOwnStorageId(userId);
  const existing = useLoad(packageId && userId ? () => esignApi.get(userId, packageId) : null, [userId, packageId]);
  const [form, setForm] = useState<PackageForm>({ name: '', message: '', password: packageId ? (draftPasswords.get(packageId) ?? '') : '' });
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<keyof PackageForm | 'documents', string>>>({});
  const [docs, setDocs] = useState<PickedDoc[]>([]);
  const [notPdf, setNotPdf] = useState<string[]>([]);
  const [picking, setPicking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<NormalisedError | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const created = useRef<string | null>(null);
  const pkg = existing.data;

  const addFiles = (files: FileList | null) => {
    const all = [...(files ?? [])];
    setNotPdf(all.filter((f) => !isPdf(f)).map((f) => f.name));
    const pdfs = all
      .filter((f) => isPdf(f))
      .map((file): PickedDoc => ({ key: `device:${file.name}:${file.size}:${file.lastModified}`, name: file.name, from: 'device', file }));
    setDocs((d) => [...d, ...pdfs.filter((p) => !d.some((x) => x.key === p.key))]);
  };

  const removeEntry = async (entryId: string) => {
    if (!packageId) return;
    try {
      await esignApi.removeEntry(userId, packageId, entryId);
      existing.reload();
    } catch (e) {
      setError(toApiError(e).toJSON());
    }
  };

  const next = async () => {
    setError(null);
    const parsed = packageFormSchema.safeParse(pkg ? { ...form, name: pkg.name } : form);
    const errors: typeof fieldErrors = {};
    if (!parsed.success) for (const issue of parsed.error.issues) errors[issue.path[0] as keyof PackageForm] ??= issue.message;
    if (docs.length === 0 && (pkg?.entries.length ?? 0) === 0) errors.documents = 'esign.upload.noDocuments';
    setFieldErrors(errors);
    if (!parsed.success || errors.documents) return;
    setBusy(true);
    try {
      // a package made on an earlier try whose upload failed is the one to go on with
      created.current ??= packageId ?? (await esignApi.create(userId, { name: parsed.data.name, message: parsed.data.message.trim() || null })).id;
      const id = created.current;
      if (parsed.data.password) draftPasswords.set(id, parsed.data.password);
      else draftPasswords.delete(id);
      for (const [i, doc] of docs.entries()) {
        setProgress(i / docs.length);
        const item =
          doc.from === 'storage' ? doc.item : await uploadToStorage(userId, storageId ?? '', doc.file, (share) => setProgress((i + share * 0.8) / docs.length));
        await esignApi.addEntry(userId, id, item.id, doc.from === 'storage' ? doc.item.storageId : undefined);
        setDocs((d) => d.filter((x) => x.key !== doc.key));
      }
      void navigate(`/esigns/package/prepare?id=${id}`);
    } catch (e) {
      setError(toApiError(e).toJSON());
      existing.reload();
    } finally {
      setBusy(false);
      setProgress(null);
    }
  };

  if (pkg && pkg.status !== 'draft')
    return (
      <Container maxWidth="sm" sx={{ py: 3 }}>
        <Alert
          severity="info"
          action={
            <Button color="inherit" size="small" onClick={() => void navigate(`/esigns/view/1/${pkg.id}`)}>
              {t('esign.list.view')}
            </Button>
          }
        >
          {t('esign.preview.alreadySent')}
        </Alert>
      </Container>
    );
  return (
    <Container maxWidth="md" sx={{ py: 3 }} data-testid="esign-upload-step">
      <WizardSteps active={0} />
      <Typography variant="h5" component="h1" sx={{ mb: 2 }}>
        {t('esign.upload.title')}
      </Typography>
      <ErrorAlert error={error ?? existing.error} testId="esign-upload-error" />
      <Stack spacing={2}>
        <TextField
          label={t('esign.upload.name')}
          value={pkg ? pkg.name : form.name}
          disabled={Boolean(pkg)}
          onChange={(e) => setForm({ ...form, name: e.target.value })}
          error={Boolean(fieldErrors.name)}
          helperText={translateFieldError(t, fieldErrors.name) ?? t('esign.upload.nameHelp')}
          slotProps={{ htmlInput: { 'data-testid': 'esign-name', maxLength: 255 } }}
          required
        />
        <TextField
          label={t('esign.upload.message')}
          value={pkg ? (pkg.message ?? '') : form.message}
          disabled={Boolean(pkg)}
          onChange={(e) => setForm({ ...form, message: e.target.value })}
          error={Boolean(fieldErrors.message)}
          helperText={translateFieldError(t, fieldErrors.message)}
          multiline
          minRows={2}
          slotProps={{ htmlInput: { 'data-testid': 'esign-message' } }}
        />
        <TextField
          label={t('esign.upload.password')}
          type="password"
          autoComplete="new-password"
          value={form.password}
          onChange={(e) => setForm({ ...form, password: e.target.value })}
          error={Boolean(fieldErrors.password)}
          helperText={translateFieldError(t, fieldErrors.password) ?? t('esign.upload.passwordHelp')}
          slotProps={{ htmlInput: { 'data-testid': 'esign-password' } }}
        />
        <Paper variant="outlined" sx={{ p: 2 }}>
          <Typography variant="subtitle1" sx={{ mb: 1 }}>
            {t('esign.upload.documents')}
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            {t('esign.upload.pdfOnly')}
          </Typography>
          <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
            <Button variant="outlined" startIcon={<CloudUploadOutlined />} onClick={() => fileInput.current?.click()} data-testid="esign-upload-device">
              {t('esign.upload.fromDevice')}
            </Button>
            <Button
              variant="outlined"
              startIcon={<FolderOpenOutlined />}
              onClick={() => setPicking(true)}
              disabled={!storageId}
              data-testid="esign-upload-storage"
            >
              {t('esign.upload.fromStorage')}
            </Button>
            <input
              ref={fileInput}
              type="file"
              accept="application/pdf,.pdf"
              multiple
              hidden
              data-testid="esign-file-input"
              onChange={(e) => {
                addFiles(e.target.files);
                e.target.value = '';
              }}
            />
          </Box>
          {notPdf.length > 0 && (
            <Alert severity="error" sx={{ mt: 1 }} data-testid="esign-not-pdf">
              {t('errors.ESIGN_PDF_ONLY')}: {notPdf.join(', ')}
            </Alert>
          )}
          {fieldErrors.documents && (
            <Alert severity="error" sx={{ mt: 1 }} data-testid="esign-no-documents">
              {t(fieldErrors.documents)}
            </Alert>
          )}
          <List dense>
            {pkg?.entries.map((entry) => (
              <ListItem
                key={entry.id}
                data-testid="esign-doc"
                data-name={entry.name}
                secondaryAction={
                  <IconButton edge="end" aria-label={t('esign.upload.remove', { name: entry.name })} onClick={() => void removeEntry(entry.id)}>
                    <DeleteOutlined />
                  </IconButton>
                }
              >
                <ListItemIcon>
                  <PictureAsPdfOutlined />
                </ListItemIcon>
                <ListItemText primary={entry.name} secondary={t('esign.upload.pages', { count: entry.pageCount })} sx={{ overflowWrap: 'anywhere' }} />
              </ListItem>
            ))}
            {docs.map((doc) => (
              <ListItem
                key={doc.key}
                data-testid="esign-doc"
                data-name={doc.name}
                secondaryAction={
                  <IconButton
                    edge="end"
                    aria-label={t('esign.upload.remove', { name: doc.name })}
                    onClick={() => setDocs(docs.filter((d) => d.key !== doc.key))}
                  >
                    <DeleteOutlined />
                  </IconButton>
                }
              >
                <ListItemIcon>
                  <PictureAsPdfOutlined />
                </ListItemIcon>
                <ListItemText
                  primary={doc.name}
                  secondary={t(doc.from === 'device' ? 'esign.upload.toUpload' : 'esign.upload.inStorage')}
                  sx={{ overflowWrap: 'anywhere' }}
                />
              </ListItem>
            ))}
          </List>
        </Paper>
        {progress !== null && <LinearProgress variant="determinate" value={progress * 100} aria-label={t('esign.upload.progress')} />}
        <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 1 }}>
          <Button onClick={() => void navigate('/esigns/drafts')}>{t('common.cancel')}</Button>
          <Button variant="contained" onClick={() => void next()} disabled={busy || !userId} data-testid="esign-next">
            {t('esign.next')}
          </Button>
        </Box>
      </Stack>
      <StoragePdfPicker
        userId={userId}
        storageId={storageId}
        open={picking}
        onClose={() => setPicking(false)}
        onPick={(item) => {
          setPicking(false);
          setDocs((d) => (d.some((x) => x.key === `storage:${item.id}`) ? d : [...d, { key: `storage:${item.id}`, name: item.name, from: 'storage', item }]));
        }}
      />
    </Container>
  );
};
