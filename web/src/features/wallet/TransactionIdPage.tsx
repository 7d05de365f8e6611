import ErrorOutline from '@mui/icons-material/ErrorOutlineOutlined';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useParams } from 'react-router';
import { CenteredCard } from '../../components/StatusPage';
import { validate } from '../../forms/zodErrors';
import { transactionIdSchema } from './TransactionSearchPage';

/**
 * `/transaction/:id` as the web app sees it: a well-formed id is sent on to the explorer before this
 * page renders (by the navigation guard, or by the server on a full load), so what is left is an id
 * that does not have the form the specification gives (letters and digits, at least 20): say so.
 */
export const TransactionIdPage = () => {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const valid = validate(transactionIdSchema, { id }).ok;
  return (
    <CenteredCard testId="transaction-id">
      <Stack spacing={2} sx={{ alignItems: 'center', textAlign: 'center' }} data-testid={valid ? 'transaction-id-opening' : 'transaction-id-invalid'}>
        {!valid && <ErrorOutline color="error" sx={{ fontSize: 56 }} />}
        <Typography variant="h5" component="h1">
          {t(valid ? 'wallet.search.title' : 'wallet.invalidId.title')}
        </Typography>
        <Typography color="text.secondary" sx={{ wordBreak: 'break-all' }}>
          {valid ? id : t('wallet.invalidId.body', { id })}
        </Typography>
        <Button
          variant="contained"
          {...(valid ? { component: 'a', href: `/transaction/${encodeURIComponent(id)}` } : { component: RouterLink, to: '/transaction/search' })}
          data-testid="transaction-id-search"
        >
          {t(valid ? 'wallet.transactions.explorer' : 'wallet.invalidId.search')}
        </Button>
      </Stack>
    </CenteredCard>
  );
};
