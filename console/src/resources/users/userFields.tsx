import { Chip, Stack } from '@mui/material';
import { FunctionField, SelectField, useRecordContext, useTranslate, type FunctionFieldProps } from 'react-admin';
import { statusChips } from './userStatus';
import { formatValue, NONE } from './userValues';
import { useDates } from '../../i18n/dates';

export const ROLE_CHOICES = ['user', 'admin', 'super_admin', 'financial_admin', 'auditor'].map((id) => ({ id, name: `resources.users.roles.${id}` }));

export const RoleField = (props: { source?: string; label?: string; sortable?: boolean }) => (
  <SelectField source="role" choices={ROLE_CHOICES} emptyText={NONE} {...props} />
);

/** Every chip that applies (a blocked or locked user's status alone still reads "active"). */
export const StatusField = (_props: { label?: string; sortable?: boolean; source?: string }) => {
  const record = useRecordContext();
  const translate = useTranslate();
  const dates = useDates();
  if (!record) return null;
  return (
    <Stack direction="row" spacing={0.5} useFlexGap sx={{ flexWrap: 'wrap' }} data-testid="user-status">
      {statusChips(record).map((c) => (
        <Chip
          key={c.kind}
          size="small"
          color={c.color}
          label={translate(c.label, { _: String(record.status ?? NONE) })}
          title={c.until ? translate('resources.users.statuses.until', { until: dates.dateTime(c.until) }) : undefined}
          data-testid={`user-status-${c.kind}`}
        />
      ))}
    </Stack>
  );
};

/** Any admin-view value whose shape the API leaves open: lists, objects, plain values. */
export const ValueField = ({ source, ...rest }: Omit<FunctionFieldProps, 'render'> & { source: string }) => (
  <FunctionField
    source={source}
    {...rest}
    render={(record) => formatValue(source.split('.').reduce<unknown>((v, key) => (v as Record<string, unknown> | null | undefined)?.[key], record))}
  />
);
