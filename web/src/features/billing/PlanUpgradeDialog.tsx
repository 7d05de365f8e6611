import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { Product } from './billing.types';
import { formatMoney, formatStorage } from './money';
import { checkoutPath } from './PlansPage';
import { plansFor, slug } from './PlanGrid';

/**
 * The plan upgrade dialog: the monthly plans above the current one, each a step away from its
 * checkout; any feature that needs a better plan can open it.
 */
export const PlanUpgradeDialog = ({
  open,
  onClose,
  products,
  currentWeight,
  reason,
}: {
  open: boolean;
  onClose: () => void;
  products: readonly Product[];
  currentWeight: number | null;
  reason?: string;
}) => {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const offers = plansFor(products, 'monthly', currentWeight);
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="xs" data-testid="plan-upgrade-dialog">
      <DialogTitle>{t('billing.upgradeDialog.title')}</DialogTitle>
      <DialogContent>
        <DialogContentText>{reason ?? t('billing.upgradeDialog.body')}</DialogContentText>
        {offers.length === 0 ? (
          <DialogContentText sx={{ mt: 2 }}>{t('billing.upgradeDialog.top')}</DialogContentText>
        ) : (
          <List>
            {offers.map((p) => (
              <ListItemButton key={p.id} onClick={() => void navigate(checkoutPath(p))} data-testid={`upgrade-offer-${slug(p.name)}`}>
                <ListItemText
                  primary={p.name}
                  secondary={[
                    `${formatMoney(p.price, p.currency, i18n.language)} ${t('billing.plans.perMonth')}`,
                    p.quotaBytes === null ? null : formatStorage(p.quotaBytes, i18n.language),
                  ]
                    .filter(Boolean)
                    .join(' · ')}
                />
              </ListItemButton>
            ))}
          </List>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common.close')}</Button>
        <Button onClick={() => void navigate('/storages/upgrade')}>{t('billing.upgradeDialog.allPlans')}</Button>
      </DialogActions>
    </Dialog>
  );
};
