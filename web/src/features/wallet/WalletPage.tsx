import AccountBalanceWalletOutlined from '@mui/icons-material/AccountBalanceWalletOutlined';
import AddCardOutlined from '@mui/icons-material/AddCardOutlined';
import CallReceivedOutlined from '@mui/icons-material/CallReceivedOutlined';
import ContactsOutlined from '@mui/icons-material/ContactsOutlined';
import PaymentsOutlined from '@mui/icons-material/PaymentsOutlined';
import ReceiptLongOutlined from '@mui/icons-material/ReceiptLongOutlined';
import SendOutlined from '@mui/icons-material/SendOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Container from '@mui/material/Container';
import Divider from '@mui/material/Divider';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation } from 'react-router';
import { localeTag } from '../../components/i18nHelpers';
import { displayAxel, toUnits } from './amounts';
import { useBalance } from './balance.store';
import { ContactsSection } from './ContactsSection';
import { OverviewSection } from './OverviewSection';
import { PaymentSection } from './PaymentSection';
import { ReceiveSection } from './ReceiveSection';
import { ReplenishSection } from './ReplenishSection';
import { SendSection } from './SendSection';
import { TransactionsSection } from './TransactionsSection';
import { useChainInfo } from './useChainInfo';

/** The specification's sidebar, in its order; contacts follow, apart. */
export const WALLET_SECTIONS = ['overview', 'send', 'receive', 'replenish', 'payment', 'transactions'] as const;
export type WalletSection = (typeof WALLET_SECTIONS)[number] | 'contacts';

const ICONS: Record<WalletSection, ReactElement> = {
  overview: <AccountBalanceWalletOutlined />,
  send: <SendOutlined />,
  receive: <CallReceivedOutlined />,
  replenish: <AddCardOutlined />,
  payment: <PaymentsOutlined />,
  transactions: <ReceiptLongOutlined />,
  contacts: <ContactsOutlined />,
};

const sectionOf = (path: string): WalletSection => {
  const last = path.replace(/\/+$/, '').split('/').pop()?.toLowerCase() ?? '';
  return (WALLET_SECTIONS as readonly string[]).includes(last) || last === 'contacts' ? (last as WalletSection) : 'transactions';
};

const SidebarItem = ({ section, active }: { section: WalletSection; active: boolean }) => {
  const { t } = useTranslation();
  return (
    <ListItemButton
      component={RouterLink}
      to={`/wallet/${section}`}
      selected={active}
      aria-current={active ? 'page' : undefined}
      data-testid={`wallet-nav-${section}`}
    >
      <ListItemIcon>{ICONS[section]}</ListItemIcon>
      <ListItemText primary={t(`wallet.nav.${section}`)} />
    </ListItemButton>
  );
};

const BalanceLine = () => {
  const { t, i18n } = useTranslation();
  const { balance, summary, error } = useBalance();
  const tag = localeTag(i18n.language);
  if (!balance) return error ? <Typography color="error">{t('wallet.balance.failed')}</Typography> : null;
  const outgoing = toUnits(summary?.outgoing ?? '0') ?? 0;
  return (
    <Stack spacing={1}>
      <Stack direction="row" sx={{ flexWrap: 'wrap', columnGap: 3, rowGap: 0.5 }} data-testid="wallet-balance">
        <Typography>
          {t('wallet.balance.confirmed')}: <strong data-testid="wallet-balance-confirmed">{displayAxel(balance.confirmed, tag)}</strong> AXEL
        </Typography>
        <Typography color="text.secondary">
          {t('wallet.balance.unconfirmed')}: <span data-testid="wallet-balance-unconfirmed">{displayAxel(balance.unconfirmed, tag)}</span> AXEL
        </Typography>
        {outgoing > 0 && (
          <Typography color="text.secondary">
            {t('wallet.balance.outgoing')}: <span data-testid="wallet-balance-outgoing">{displayAxel(summary?.outgoing, tag)}</span> AXEL
          </Typography>
        )}
      </Stack>
      <SendBlockedNotice />
    </Stack>
  );
};

/** Why a send cannot go now: the pending send (or the tokens on their way in) must be in a block first. */
const SendBlockedNotice = () => {
  const { t, i18n } = useTranslation();
  const { summary } = useBalance();
  const tag = localeTag(i18n.language);
  if (!summary?.sendBlockedBy) return null;
  return (
    <Alert severity="info" data-testid="wallet-send-blocked" data-blocked-by={summary.sendBlockedBy}>
      {summary.sendBlockedBy === 'outgoing'
        ? t('wallet.balance.blockedByOutgoing', { amount: displayAxel(summary.outgoing, tag) })
        : t('wallet.balance.blockedByIncoming', { amount: displayAxel(summary.pending, tag) })}
    </Alert>
  );
};

/** The wallet: header with the chain and the balance, the sidebar, and the chosen section. */
export const WalletPage = () => {
  const { t } = useTranslation();
  const location = useLocation();
  const section = sectionOf(location.pathname);
  const chain = useChainInfo();

  return (
    <Container maxWidth="lg" sx={{ py: 3 }}>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mb: 1, flexWrap: 'wrap' }}>
        <Typography variant="h4" component="h1">
          {t('wallet.title')}
        </Typography>
        {chain?.development && <Chip color="warning" label={t('wallet.developmentChain')} data-testid="wallet-dev-chain" />}
      </Stack>
      <Box sx={{ mb: 2 }}>
        <BalanceLine />
      </Box>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ alignItems: 'flex-start' }}>
        <Paper variant="outlined" component="nav" aria-label={t('wallet.nav.label')} sx={{ width: { xs: '100%', md: 240 }, flexShrink: 0 }}>
          <List disablePadding>
            {WALLET_SECTIONS.map((s) => (
              <SidebarItem key={s} section={s} active={s === section} />
            ))}
            <Divider />
            <SidebarItem section="contacts" active={section === 'contacts'} />
          </List>
        </Paper>
        <Paper variant="outlined" sx={{ flex: 1, p: { xs: 2, sm: 3 }, width: '100%', minWidth: 0 }} data-testid={`wallet-section-${section}`}>
          {section === 'overview' && <OverviewSection />}
          {section === 'send' && <SendSection />}
          {section === 'receive' && <ReceiveSection />}
          {section === 'replenish' && <ReplenishSection />}
          {section === 'payment' && <PaymentSection />}
          {section === 'transactions' && <TransactionsSection />}
          {section === 'contacts' && <ContactsSection />}
        </Paper>
      </Stack>
    </Container>
  );
};
