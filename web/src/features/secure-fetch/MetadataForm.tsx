import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { translateFieldError } from '../../components/i18nHelpers';
import type { FieldErrors } from '../../forms/zodErrors';
import { COPYRIGHT_TYPE_IDS, type MetadataValues } from './secure-fetch.validation';

const FIELDS: ReadonlyArray<{ field: keyof MetadataValues; type?: string; required?: boolean }> = [
  { field: 'contactEmail', type: 'email', required: true },
  { field: 'author' },
  { field: 'publisher' },
  { field: 'isbn' },
  { field: 'keywords' },
  { field: 'website', type: 'url' },
];

/** The metadata a link asks the sender for (spec §3): contact e-mail, copyright type and the publication fields. */
export const MetadataForm = ({
  values,
  errors,
  disabled,
  onChange,
}: {
  values: MetadataValues;
  errors: FieldErrors;
  disabled?: boolean;
  onChange: (field: keyof MetadataValues, value: string) => void;
}) => {
  const { t } = useTranslation();
  const field = (name: keyof MetadataValues, type?: string, required?: boolean) => (
    <TextField
      key={name}
      label={t(`secureFetch.metadata.${name}`)}
      type={type}
      required={required}
      value={values[name]}
      disabled={disabled}
      onChange={(e) => onChange(name, e.target.value)}
      error={Boolean(errors[name])}
      helperText={translateFieldError(t, errors[name]) ?? (name === 'keywords' ? t('secureFetch.metadata.keywordsHint') : undefined)}
      slotProps={{ htmlInput: { 'data-testid': `fetch-meta-${name}` } }}
      fullWidth
      size="small"
    />
  );
  return (
    <Stack spacing={2} data-testid="fetch-metadata-form">
      <Typography variant="subtitle1">{t('secureFetch.metadata.title')}</Typography>
      {field('contactEmail', 'email', true)}
      <TextField
        select
        required
        label={t('secureFetch.metadata.copyrightTypeId')}
        value={values.copyrightTypeId}
        disabled={disabled}
        onChange={(e) => onChange('copyrightTypeId', e.target.value)}
        error={Boolean(errors.copyrightTypeId)}
        helperText={translateFieldError(t, errors.copyrightTypeId)}
        slotProps={{ select: { SelectDisplayProps: { 'data-testid': 'fetch-meta-copyrightTypeId' } as object } }}
        fullWidth
        size="small"
      >
        {COPYRIGHT_TYPE_IDS.map((type) => (
          <MenuItem key={type} value={String(type)} data-testid={`copyright-${type}`}>
            {t(`secureFetch.copyrightTypes.${type}`)}
          </MenuItem>
        ))}
      </TextField>
      {FIELDS.filter((f) => f.field !== 'contactEmail').map((f) => field(f.field, f.type, f.required))}
    </Stack>
  );
};
