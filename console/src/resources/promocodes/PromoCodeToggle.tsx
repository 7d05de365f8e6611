import ToggleOffIcon from '@mui/icons-material/ToggleOff';
import ToggleOnIcon from '@mui/icons-material/ToggleOn';
import { useState } from 'react';
import { Button, useNotify, usePermissions, useRecordContext, useRefresh } from 'react-admin';
import { Features, hasFeature } from '../../auth/access';
import { promoCodesApi } from './promoCodesApi';

/** Switches a code on or off; offered to staff who may add promo codes (the same feature gates edits). */
export const PromoCodeToggle = () => {
  const record = useRecordContext();
  const { permissions } = usePermissions();
  const notify = useNotify();
  const refresh = useRefresh();
  const [busy, setBusy] = useState(false);
  if (!record || !hasFeature(permissions, Features.promoCodeAdd)) return null;
  const active = record.status === 'active';
  const next = active ? 'inactive' : 'active';
  const toggle = async () => {
    setBusy(true);
    try {
      await promoCodesApi.toggle(record.id);
      notify(`resources.promocodes.notifications.${next}`, { type: 'success' });
      refresh();
    } catch (error) {
      notify(error instanceof Error && error.message ? error.message : 'ra.notification.http_error', { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button
      label={active ? 'resources.promocodes.actions.deactivate' : 'resources.promocodes.actions.activate'}
      disabled={busy}
      onClick={(e) => {
        e.stopPropagation();
        void toggle();
      }}
      data-testid={`promo-toggle-${String(record.code ?? record.id)}`}
    >
      {active ? <ToggleOffIcon /> : <ToggleOnIcon />}
    </Button>
  );
};
