import { Chip } from '@mui/material';
import { FunctionField, SelectField, useRecordContext, useTranslate, type FunctionFieldProps } from 'react-admin';
import { formatValue, NONE } from './userValues';

export const ROLE_CHOICES = ['user', 'admin', 'super_admin', 'financial_admin'].map((id) => ({ id, name: `resources.users.roles.${id}` }));
export const STATUS_CHOICES = ['active', 'suspended', 'inactive', 'unpaid', 'abandoned'].map((id) => ({ id, name: `resources.users.statuses.${id}` }));

export const RoleField = (props: { source?: string; label?: string; sortable?: boolean }) => (
  <SelectField source="role" choices={ROLE_CHOICES} emptyText={NONE} {...props} />
);

const statusColor: Record<string, 'success' | 'error' | 'warning' | 'default'> = {
  active: 'success',
  suspended: 'error',
  inactive: 'default',
  unpaid: 'warning',
  abandoned: 'warning',
};

export const StatusField = (_props: { label?: string; sortable?: boolean; source?: string }) => {
  const record = useRecordContext();
  const translate = useTranslate();
  if (!record) return null;
  const status = String(record.status ?? '');
  return (
    <Chip
      size="small"
      color={statusColor[status] ?? 'default'}
      label={translate(`resources.users.statuses.${status}`, { _: status || NONE })}
      data-testid="user-status"
    />
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

export const JsonField = ({ source, ...rest }: Omit<FunctionFieldProps, 'render'> & { source: string }) => (
  <FunctionField
    source={source}
    {...rest}
    render={(record) => {
      const value = record?.[source];
      if (value === null || value === undefined) return NONE;
      const text = JSON.stringify(value);
      return (
        <code style={{ fontSize: 12, wordBreak: 'break-all' }} title={JSON.stringify(value, null, 2)}>
          {text === '{}' ? NONE : text.length > 200 ? `${text.slice(0, 197)}...` : text}
        </code>
      );
    }}
  />
);
