import { Chip } from '@mui/material';
import { useRecordContext, useTranslate } from 'react-admin';

const COLORS: Record<string, 'default' | 'info' | 'success' | 'warning' | 'error' | 'primary'> = {
  draft: 'default',
  submitted: 'info',
  approved: 'primary',
  paying: 'primary',
  paid: 'success',
  partially_failed: 'warning',
  rejected: 'error',
  locked: 'warning',
  cancelled: 'default',
  pending: 'default',
  failed: 'error',
};

export const ProgramStatusField = ({ source = 'status' }: { source?: string; label?: string; sortable?: boolean }) => {
  const record = useRecordContext();
  const translate = useTranslate();
  if (!record) return null;
  const status = String(record[source] ?? '');
  return (
    <Chip
      size="small"
      color={COLORS[status] ?? 'default'}
      label={translate(`resources.auto-pay.statuses.${status}`, { _: status })}
      data-testid={`autopay-status-${status}`}
    />
  );
};
