import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { localeTag } from '../../components/i18nHelpers';
import { displayAxel } from './amounts';
import { useBalance } from './balance.store';

/** The specification's costs of pinning (§9), taken from the confirmed balance. */
export const PINNING_COSTS = { secureFetch: '0.003', certificate: '0.006', total: '0.009' } as const;

export const PaymentSection = () => {
  const { t, i18n } = useTranslation();
  const tag = localeTag(i18n.language);
  const { balance } = useBalance();
  return (
    <Stack spacing={2}>
      <Typography variant="h5" component="h2">
        {t('wallet.nav.payment')}
      </Typography>
      <Typography color="text.secondary">{t('wallet.payment.hint')}</Typography>
      <Table size="small" sx={{ maxWidth: 480 }} data-testid="payment-costs">
        <TableBody>
          {(Object.keys(PINNING_COSTS) as (keyof typeof PINNING_COSTS)[]).map((k) => (
            <TableRow key={k}>
              <TableCell component="th" scope="row">
                {t(`wallet.payment.costs.${k}`)}
              </TableCell>
              <TableCell align="right">{displayAxel(PINNING_COSTS[k], tag)} AXEL</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      {balance && (
        <Typography data-testid="payment-confirmed">
          {t('wallet.payment.confirmed', { amount: displayAxel(balance.confirmed, tag) })}
        </Typography>
      )}
    </Stack>
  );
};
