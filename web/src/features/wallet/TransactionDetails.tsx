import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { formatDateTime, localeTag } from '../../components/i18nHelpers';
import { displayAxel } from './amounts';
import type { WalletTransaction } from './wallet.types';

const CATEGORIES = ['send', 'receive', 'generate'];

/** A transaction's category in the reader's words (sent, received, minted); an unknown one as the chain names it. */
export const categoryWords = (t: TFunction, tx: Pick<WalletTransaction, 'category' | 'type'>): string => {
  const category = tx.category ?? tx.type ?? null;
  if (!category) return '—';
  return CATEGORIES.includes(category) ? t(`wallet.tx.categories.${category}`) : category;
};

/** The user's own note, else what the transaction was when the chain tells (test tokens, from or to the treasury). */
export const noteWords = (t: TFunction, tx: Pick<WalletTransaction, 'note' | 'about'>): string =>
  tx.note ? tx.note : tx.about ? t(`wallet.tx.about.${tx.about}`) : '';

/** The specification's transaction fields, as a two-column table. */
export const TransactionDetails = ({ tx }: { tx: WalletTransaction }) => {
  const { t, i18n } = useTranslation();
  const tag = localeTag(i18n.language);
  const when = (v?: string | null) => (v ? formatDateTime(v, i18n.language) : '—');
  const rows: [string, string][] = [
    ['id', tx.id],
    ['amount', displayAxel(tx.amount, tag)],
    ['category', categoryWords(t, tx)],
    ['address', tx.address ?? '—'],
    ['note', noteWords(t, tx) || '—'],
    ['timestamp', when(tx.timestamp)],
    ['confirmations', String(tx.confirmations)],
    ['blockIndex', tx.blockIndex === null || tx.blockIndex === undefined ? '—' : String(tx.blockIndex)],
    ['blockHash', tx.blockHash ?? '—'],
    ['blockTime', when(tx.blockTime)],
    ['linked', tx.linkedTransactions?.length ? tx.linkedTransactions.join(', ') : '—'],
  ];
  return (
    <Table size="small" data-testid="transaction-details">
      <TableBody>
        {rows.map(([key, value]) => (
          <TableRow key={key}>
            <TableCell component="th" scope="row" sx={{ whiteSpace: 'nowrap' }}>
              {t(`wallet.tx.${key}`)}
            </TableCell>
            <TableCell sx={{ wordBreak: 'break-all' }} data-testid={`transaction-${key}`}>
              {value}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
};
