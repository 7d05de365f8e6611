import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { logout } from '../../session/session';
import { useSession } from '../../session/store';
import { billingFlagsOf } from './useBilling';

/** Only web pages are opened (ours, the provider's, or PUBLIC_URL's): a checkout link is never a script. */
export const isOpenableLink = (link: string, origin: string): boolean => {
  try {
    const url = new URL(link, origin);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
};

/**
 * The pay prompt (§4 "App reactions"): a user whose plan was prepared for them has a pending
 * product with a checkout link. Pay opens the link; copying it (to pay from another device) ends
 * this session and clears the user, as the specification asks.
 */
export const PayPromptDialog = () => {
  const { t } = useTranslation();
  const { user } = useSession();
  const [dismissed, setDismissed] = useState<string | null>(null);
  const pending = billingFlagsOf(user).pendingProduct;
  if (!user || !pending || dismissed === pending.checkoutLink || !isOpenableLink(pending.checkoutLink, window.location.origin)) return null;

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(new URL(pending.checkoutLink, window.location.origin).toString());
    } catch {
      // Without clipboard access the link stays on screen in the dialog until the session ends.
    }
    await logout();
  };

  return (
    <Dialog open onClose={() => setDismissed(pending.checkoutLink)} data-testid="pay-prompt">
      <DialogTitle>{t('billing.payPrompt.title')}</DialogTitle>
      <DialogContent>
        <DialogContentText>{t('billing.payPrompt.body')}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={() => setDismissed(pending.checkoutLink)}>{t('billing.payPrompt.later')}</Button>
        <Button onClick={() => void copy()} data-testid="pay-prompt-copy">
          {t('billing.payPrompt.copy')}
        </Button>
        <Button variant="contained" onClick={() => window.location.assign(pending.checkoutLink)} data-testid="pay-prompt-pay">
          {t('billing.payPrompt.pay')}
        </Button>
      </DialogActions>
    </Dialog>
  );
};
