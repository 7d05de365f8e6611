import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import PersonAddAlt1Outlined from '@mui/icons-material/PersonAddAlt1Outlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toApiError, type NormalisedError } from '../../api/errors';
import { ErrorAlert } from '../../components/ErrorAlert';
import { translateFieldError } from '../../components/i18nHelpers';
import type { EsignSigner } from './esign.api';
import { COLOR_CHOICES, nextFreeColor, signerColor, signerFormSchema } from './esign.rules';

export const ColorDot = ({ color, size = 14 }: { color: number; size?: number }) => (
  <Box component="span" sx={{ display: 'inline-block', width: size, height: size, borderRadius: '50%', bgcolor: signerColor(color), flexShrink: 0 }} />
);

type SignerFields = { name: string; email: string; color: number; order: string };
type NewSigner = { name: string; email: string; color: number; order: number | null };

/** The package's signers (name, e-mail, colour 1 to 10, optional signing order), and the form that adds one. */
export const SignersPanel = ({
  signers,
  pinCount,
  editable,
  onAdd,
  onRemove,
}: {
  signers: readonly EsignSigner[];
  pinCount: (signerId: string) => number;
  editable: boolean;
  onAdd: (signer: NewSigner) => Promise<void>;
  onRemove: (signer: EsignSigner) => Promise<void>;
}) => {
  const { t } = useTranslation();
  const fresh = (): SignerFields => ({ name: '', email: '', color: nextFreeColor(signers.map((s) => s.color)), order: '' });
  const [fields, setFields] = useState<SignerFields>(fresh);
  const [errors, setErrors] = useState<Partial<Record<keyof SignerFields, string>>>({});
  const [error, setError] = useState<NormalisedError | null>(null);
  const [busy, setBusy] = useState(false);
  const add = async () => {
    setError(null);
    const parsed = signerFormSchema(signers.map((s) => s.email)).safeParse({
      ...fields,
      order: fields.order.trim() === '' ? null : Number(fields.order),
    });
    if (!parsed.success) {
      const found: typeof errors = {};
      for (const issue of parsed.error.issues) found[issue.path[0] as keyof SignerFields] ??= issue.message;
      setErrors(found);
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      await onAdd(parsed.data);
      setFields({ ...fresh(), color: nextFreeColor([...signers.map((s) => s.color), parsed.data.color]) });
    } catch (e) {
      setError(toApiError(e).toJSON());
    } finally {
      setBusy(false);
    }
  };
  return (
    <Paper variant="outlined" sx={{ p: 2 }} data-testid="esign-signers">
      <Typography variant="subtitle1">{t('esign.prepare.signers')}</Typography>
      <List dense>
        {signers.map((s) => (
          <ListItem
            key={s.id}
            data-testid="esign-signer"
            data-email={s.email}
            secondaryAction={
              editable && (
                <IconButton
                  edge="end"
                  aria-label={t('esign.prepare.removeSigner', { name: s.name })}
                  onClick={() => void onRemove(s).catch((e) => setError(toApiError(e).toJSON()))}
                >
                  <DeleteOutlined />
                </IconButton>
              )
            }
          >
            <ListItemIcon sx={{ minWidth: 28 }}>
              <ColorDot color={s.color} />
            </ListItemIcon>
            <ListItemText
              primary={s.order ? `${s.order}. ${s.name}` : s.name}
              secondary={`${s.email} · ${t('esign.prepare.fieldCount', { count: pinCount(s.id) })}${s.finishedAt ? ` · ${t('esign.prepare.finished')}` : ''}`}
              slotProps={{ primary: { sx: { overflowWrap: 'anywhere' } }, secondary: { sx: { overflowWrap: 'anywhere' } } }}
            />
          </ListItem>
        ))}
      </List>
      <ErrorAlert error={error} testId="esign-signer-error" />
      {editable && (
        <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, gap: 1.5 }}>
          <TextField
            size="small"
            label={t('esign.prepare.signerName')}
            value={fields.name}
            onChange={(e) => setFields({ ...fields, name: e.target.value })}
            error={Boolean(errors.name)}
            helperText={translateFieldError(t, errors.name)}
            slotProps={{ htmlInput: { 'data-testid': 'esign-signer-name' } }}
          />
          <TextField
            size="small"
            type="email"
            label={t('esign.prepare.signerEmail')}
            value={fields.email}
            onChange={(e) => setFields({ ...fields, email: e.target.value })}
            error={Boolean(errors.email)}
            helperText={translateFieldError(t, errors.email)}
            slotProps={{ htmlInput: { 'data-testid': 'esign-signer-email' } }}
          />
          <TextField
            select
            size="small"
            label={t('esign.prepare.signerColor')}
            value={fields.color}
            onChange={(e) => setFields({ ...fields, color: Number(e.target.value) })}
            slotProps={{ htmlInput: { 'data-testid': 'esign-signer-color' } }}
          >
            {COLOR_CHOICES.map((c) => (
              <MenuItem key={c} value={c}>
                <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
                  <ColorDot color={c} /> {t('esign.prepare.colorN', { n: c })}
                </Box>
              </MenuItem>
            ))}
          </TextField>
          <TextField
            size="small"
            type="number"
            label={t('esign.prepare.signerOrder')}
            value={fields.order}
            onChange={(e) => setFields({ ...fields, order: e.target.value })}
            error={Boolean(errors.order)}
            helperText={errors.order ? t('esign.prepare.orderInvalid') : t('esign.prepare.orderHelp')}
            slotProps={{ htmlInput: { 'data-testid': 'esign-signer-order', min: 1, max: 1000 } }}
          />
          <Box sx={{ gridColumn: { sm: 'span 2' } }}>
            <Button variant="outlined" startIcon={<PersonAddAlt1Outlined />} disabled={busy} onClick={() => void add()} data-testid="esign-signer-add">
              {t('esign.prepare.addSigner')}
            </Button>
          </Box>
        </Box>
      )}
    </Paper>
  );
};
