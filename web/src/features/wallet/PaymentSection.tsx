import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { localeTag } from '../../components/i18nHelpers';
import { displayAxel, formatAxel, toUnits } from './amounts';
import { useChainInfo } from './useChainInfo';
import { useBalance } from './balance.store';

/** The specification's costs of pinning (§9), until the chain's own figures arrive. */
export const PINNING_COSTS = { fetch: '0.003', certificate: '0.006' } as const;

/** The three lines shown: a fetch, the certificate on top, and both together, summed in base units. */
export const costLines = (costs: { fetch: string; certificate: string }) => {
  const fetch = toUnits(costs.fetch) ?? 0;
  const certificate = toUnits(costs.certificate) ?? 0;
  return { secureFetch: formatAxel(fetch), certificate: formatAxel(certificate), total: formatAxel(fetch + certificate) };
};

export const PaymentSection = () => {
  const { t, i18n } = useTranslation();
  const tag = localeTag(i18n.language);
  const { balance } = useBalance();
  const chain = useChainInfo();
  const lines = costLines(chain?.costs ?? PINNING_COSTS);
  return (
    <Stack spacing={2}>
      <Typography variant="h5" component="h2">
        {t('wallet.nav.payment')}
      </Typography>
      <Typography color="text.secondary">{t('wallet.payment.hint')}</Typography>
      <Table size="small" sx={{ maxWidth: 480 }} data-testid="payment-costs">
        <TableBody>
          {(Object.keys(lines) as (keyof typeof lines)[]).map((k) => (
            <TableRow key={k}>
              <TableCell component="th" scope="row">
                {t(`wallet.payment.costs.${k}`)}
              </TableCell>
              <TableCell align="right" data-testid={`payment-cost-${k}`}>
                {displayAxel(lines[k], tag)} AXEL
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      {balance && <Typography data-testid="payment-confirmed">{t('wallet.payment.confirmed', { amount: displayAxel(balance.confirmed, tag) })}</Typography>}
    </Stack>
  );
};
