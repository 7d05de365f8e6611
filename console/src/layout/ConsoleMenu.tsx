import AccountTreeIcon from '@mui/icons-material/AccountTree';
import VerifiedUserIcon from '@mui/icons-material/VerifiedUser';
import AccountBalanceWalletIcon from '@mui/icons-material/AccountBalanceWallet';
import BarChartIcon from '@mui/icons-material/BarChart';
import DashboardIcon from '@mui/icons-material/Dashboard';
import DnsIcon from '@mui/icons-material/Dns';
import HistoryIcon from '@mui/icons-material/History';
import LocalOfferIcon from '@mui/icons-material/LocalOffer';
import PaymentsIcon from '@mui/icons-material/Payments';
import PeopleIcon from '@mui/icons-material/People';
import GroupsIcon from '@mui/icons-material/Groups';
import PersonOffIcon from '@mui/icons-material/PersonOff';
import LanIcon from '@mui/icons-material/Lan';
import PublicIcon from '@mui/icons-material/Public';
import PushPinIcon from '@mui/icons-material/PushPin';
import RouterIcon from '@mui/icons-material/Router';
import StorageIcon from '@mui/icons-material/Storage';
import SdStorageIcon from '@mui/icons-material/SdStorage';
import { Menu, useBasename, usePermissions } from 'react-admin';
import { mayReadActivity } from '../resources/activity';

/** The specification's menu, in its order, plus the process monitor. */
export const ConsoleMenu = () => {
  // The console is mounted under /admin inside a browser router: links are absolute, so they carry it.
  const basename = useBasename();
  const { permissions } = usePermissions();
  return (
    <Menu>
      <Menu.Item to={`${basename}/dashboard`} primaryText="console.menu.dashboard" leftIcon={<DashboardIcon />} data-testid="menu-dashboard" />
      <Menu.Item to={`${basename}/users`} primaryText="console.menu.activeUsers" leftIcon={<PeopleIcon />} data-testid="menu-users" />
      <Menu.Item to={`${basename}/deleted-users`} primaryText="console.menu.deletedUsers" leftIcon={<PersonOffIcon />} data-testid="menu-deleted-users" />
      <Menu.Item to={`${basename}/promocodes`} primaryText="console.menu.promoCodes" leftIcon={<LocalOfferIcon />} data-testid="menu-promocodes" />
      <Menu.Item to={`${basename}/billing`} primaryText="console.menu.billing" leftIcon={<BarChartIcon />} data-testid="menu-billing" />
      <Menu.Item to={`${basename}/ipfs-pins`} primaryText="console.menu.ipfsPinning" leftIcon={<PushPinIcon />} data-testid="menu-ipfs-pinning" />
      <Menu.Item to={`${basename}/auto-pay`} primaryText="console.menu.autoPay" leftIcon={<PaymentsIcon />} data-testid="menu-auto-pay" />
      <Menu.Item
        to={`${basename}/wallet`}
        primaryText="console.menu.walletDashboard"
        leftIcon={<AccountBalanceWalletIcon />}
        data-testid="menu-wallet-dashboard"
      />
      <Menu.Item to={`${basename}/axel-accounts`} primaryText="console.menu.axelAccounts" leftIcon={<GroupsIcon />} data-testid="menu-axel-accounts" />
      <Menu.Item to={`${basename}/drives`} primaryText="console.menu.cloudLockers" leftIcon={<RouterIcon />} data-testid="menu-cloudlockers" />
      <Menu.Item to={`${basename}/databases`} primaryText="console.menu.databases" leftIcon={<StorageIcon />} data-testid="menu-databases" />
      <Menu.Item to={`${basename}/website-hosting`} primaryText="operations.hosting.title" leftIcon={<PublicIcon />} data-testid="menu-website-hosting" />
      <Menu.Item to={`${basename}/drive-connect`} primaryText="operations.connect.title" leftIcon={<LanIcon />} data-testid="menu-drive-connect" />
      <Menu.Item to={`${basename}/grafana`} primaryText="console.menu.grafana" leftIcon={<DnsIcon />} data-testid="menu-grafana" />
      <Menu.Item to={`${basename}/processes`} primaryText="console.menu.processes" leftIcon={<AccountTreeIcon />} data-testid="menu-processes" />
      <Menu.Item to={`${basename}/storage-health`} primaryText="console.menu.storageHealth" leftIcon={<SdStorageIcon />} data-testid="menu-storage-health" />
      {mayReadActivity(permissions) ? (
        <Menu.Item to={`${basename}/activity`} primaryText="activityLog.menu" leftIcon={<HistoryIcon />} data-testid="menu-activity" />
      ) : null}
      <Menu.Item to={`${basename}/audit`} primaryText="console.menu.audit" leftIcon={<VerifiedUserIcon />} data-testid="menu-audit" />
    </Menu>
  );
};
