import { normaliseIpfsGateway } from '@axel/domain/ipfs/ipfs.gateway';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { toApiError, type NormalisedError } from '../../api/errors';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useLoad } from '../../components/useLoad';
import { noticeStore } from '../../session/notices';
import { ipfsApi } from './ipfs.api';

/** The account's preferred IPFS gateway (spec §3 Account, its format checked as §5 says): it builds the public links of pinned files. */
export const IpfsGatewaySection = ({ userId }: { userId: string }) => {
  const { t } = useTranslation();
  const loaded = useLoad(() => ipfsApi.gateway(userId), [userId]);
  const [value, setValue] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [error, setError] = useState<NormalisedError | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (loaded.data) setValue(loaded.data.gateway ?? '');
  }, [loaded.data]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    setFieldError(null);
    if (value.trim() && !normaliseIpfsGateway(value)) return setFieldError(t('ipfs.gateway.invalid'));
    setBusy(true);
    try {
      const saved = await ipfsApi.chooseGateway(userId, value.trim() || null);
      setValue(saved.gateway ?? '');
      noticeStore.push({ severity: 'success', key: 'ipfs.gateway.saved' });
    } catch (err) {
      const apiError = toApiError(err).toJSON();
      if (apiError.code === 'INVALID_IPFS_GATEWAY') setFieldError(t('ipfs.gateway.invalid'));
      else setError(apiError);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Box component="section" aria-label={t('ipfs.gateway.title')} data-testid="account-ipfs-gateway" sx={{ py: 2 }}>
      <Typography variant="h6" component="h2" gutterBottom>
        {t('ipfs.gateway.title')}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {t('ipfs.gateway.help', { own: loaded.data?.defaultGateway ?? '' })}
      </Typography>
      <ErrorAlert error={error ?? loaded.error} testId="ipfs-gateway-error" />
      <Stack
        component="form"
        noValidate
        onSubmit={(e) => void submit(e)}
        direction={{ xs: 'column', sm: 'row' }}
        spacing={1}
        sx={{ alignItems: { sm: 'flex-start' } }}
      >
        <TextField
          size="small"
          fullWidth
          label={t('ipfs.gateway.label')}
          placeholder="https://ipfs.io"
          value={value}
          onChange={(e) => setValue(e.target.value)}
          error={!!fieldError}
          helperText={fieldError ?? t('ipfs.gateway.formats')}
          slotProps={{ htmlInput: { 'data-testid': 'ipfs-gateway-input', inputMode: 'url', maxLength: 200 } }}
        />
        <Button type="submit" variant="contained" disabled={busy || loaded.loading} data-testid="ipfs-gateway-save" sx={{ flexShrink: 0 }}>
          {t('common.save')}
        </Button>
      </Stack>
    </Box>
  );
};
