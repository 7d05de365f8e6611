import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '../../components/ErrorAlert';
import { formatDateTime, localeTag } from '../../components/i18nHelpers';
import { useLoad } from '../../components/useLoad';
import { displayAxel } from './amounts';
import { useBalance } from './balance.store';
import { categoryWords, noteWords, TransactionDetails } from './TransactionDetails';
import { TRANSACTIONS_PER_PAGE, walletApi } from './wallet.api';
import type { WalletTransaction } from './wallet.types';

export const TransactionsSection = () => {
  const { t, i18n } = useTranslation();
  const tag = localeTag(i18n.language);
  // The list follows the balance: when it changes (a block, a send) the page is read again.
  const { updatedAt, summary } = useBalance();
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<WalletTransaction | null>(null);
  const hasAddress = (summary?.addresses.length ?? 0) > 0;

  const listed = useLoad(summary && !hasAddress ? null : () => walletApi.transactions({ page, perPage: TRANSACTIONS_PER_PAGE }), [
    page,
    updatedAt,
    summary,
    hasAddress,
  ]);
  const data = listed.data ?? null;
  const { error } = listed;

  return (
    <Stack spacing={2}>
      <Typography variant="h5" component="h2">
        {t('wallet.nav.transactions')}
      </Typography>
      <ErrorAlert error={error} testId="transactions-error" />
      {summary && !hasAddress ? (
        <Typography color="text.secondary" data-testid="transactions-empty">
          {t('wallet.transactions.empty')}
        </Typography>
      ) : !data ? (
        !error && <CircularProgress aria-label={t('common.loading')} />
      ) : data.items.length === 0 ? (
        <Typography color="text.secondary" data-testid="transactions-empty">
          {t('wallet.transactions.empty')}
        </Typography>
      ) : (
        <>
          <Table size="small" data-testid="transactions-table">
            <TableHead>
              <TableRow>
                <TableCell>{t('wallet.tx.timestamp')}</TableCell>
                <TableCell>{t('wallet.tx.category')}</TableCell>
                <TableCell align="right">{t('wallet.tx.amount')}</TableCell>
                <TableCell>{t('wallet.tx.confirmations')}</TableCell>
                <TableCell>{t('wallet.tx.note')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {data.items.map((tx, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: a read-only list, replaced whole when it changes
                <TableRow key={`${tx.id}-${i}`} hover onClick={() => setOpen(tx)} sx={{ cursor: 'pointer' }} data-testid="transaction-row">
                  <TableCell>{tx.timestamp ? formatDateTime(tx.timestamp, i18n.language) : '—'}</TableCell>
                  <TableCell data-testid="transaction-row-category">{categoryWords(t, tx)}</TableCell>
                  <TableCell align="right" data-testid="transaction-row-amount">
                    {displayAxel(tx.amount, tag)}
                  </TableCell>
                  <TableCell>
                    {tx.confirmations > 0 ? (
                      <Chip
                        size="small"
                        color="success"
                        label={t('wallet.tx.confirmedCount', { count: tx.confirmations })}
                        data-testid="transaction-row-confirmed"
                      />
                    ) : (
                      <Chip size="small" color="warning" label={t('wallet.tx.unconfirmed')} data-testid="transaction-row-unconfirmed" />
                    )}
                  </TableCell>
                  <TableCell sx={{ maxWidth: 200, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }} data-testid="transaction-row-note">
                    {noteWords(t, tx)}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
          <TablePagination
            component="div"
            count={data.total}
            page={page - 1}
            rowsPerPage={TRANSACTIONS_PER_PAGE}
            rowsPerPageOptions={[TRANSACTIONS_PER_PAGE]}
            onPageChange={(_, p) => setPage(p + 1)}
            data-testid="transactions-pagination"
          />
        </>
      )}
      <Dialog open={open !== null} onClose={() => setOpen(null)} maxWidth="md" fullWidth data-testid="transaction-dialog">
        <DialogTitle>{t('wallet.transactions.detail')}</DialogTitle>
        <DialogContent>{open && <TransactionDetails tx={open} />}</DialogContent>
        <DialogActions>
          {open && /^[A-Za-z0-9]{20,}$/.test(open.id) && (
            <Button component="a" href={`/transaction/${encodeURIComponent(open.id)}`} data-testid="transaction-explorer">
              {t('wallet.transactions.explorer')}
            </Button>
          )}
          <Button onClick={() => setOpen(null)}>{t('common.close')}</Button>
        </DialogActions>
      </Dialog>
    </Stack>
  );
};
