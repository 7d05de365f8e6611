import { Chip, Link as MuiLink, Stack } from '@mui/material';
import { FunctionField, SelectField, useCreatePath, useRecordContext, useTranslate, type FunctionFieldProps } from 'react-admin';
import { Link } from 'react-router-dom';
import { statusChips } from './userStatus';
import { formatBytes, formatValue, NONE } from './userValues';
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

type FieldProps = { readonly source: string; readonly label?: string; readonly sortable?: boolean };

/** The status id in words: a deleted account reads Deleted here as in its status chip. */
export const StatusIdField = (props: FieldProps) => {
  const translate = useTranslate();
  return (
    <FunctionField
      {...props}
      render={(record) => (record.statusId ? translate(`resources.users.statuses.${record.statusId}`, { _: String(record.statusId) }) : NONE)}
    />
  );
};

/** How often the plan is paid: Monthly, Yearly, or nothing for a free plan. */
export const PaymentFrequencyField = (props: FieldProps) => {
  const translate = useTranslate();
  return (
    <FunctionField
      {...props}
      render={(record) =>
        record.paymentFrequency ? translate(`resources.users.frequencies.${record.paymentFrequency}`, { _: String(record.paymentFrequency) }) : NONE
      }
    />
  );
};

interface StorageFigures {
  readonly id: string;
  readonly type: string;
  readonly sizeUsed: number;
  readonly sizeTotal: number;
}

/** Each storage by kind with its use of its quota, in the sizes the web app shows ("Online storage: 1.5 MB of 100 GB used"). */
export const StoragesField = (props: FieldProps) => {
  const translate = useTranslate();
  return (
    <FunctionField
      {...props}
      render={(record) => {
        const storages = (Array.isArray(record.storages) ? record.storages : []) as StorageFigures[];
        if (storages.length === 0) return NONE;
        return (
          <Stack component="span" data-testid="user-storages">
            {storages.map((s) => (
              <span key={s.id}>
                {translate('resources.users.storageUsage', {
                  storage: translate(`resources.users.storageTypes.${s.type}`, { _: s.type }),
                  used: formatBytes(s.sizeUsed),
                  total: formatBytes(s.sizeTotal),
                })}
              </span>
            ))}
          </Stack>
        );
      }}
    />
  );
};

/** Who deleted the account: the staff member by e-mail (a link to their page), the user themselves, or non-payment. */
export const DeletedByField = (props: FieldProps) => {
  const translate = useTranslate();
  const createPath = useCreatePath();
  return (
    <FunctionField
      {...props}
      render={(record) => {
        if (!record.deletedAt) return NONE;
        if (record.deletedBy === 'user' || record.deletedBy === 'non_payment') return translate(`resources.users.deletion.${record.deletedBy}`);
        if (!record.deleterId) return NONE;
        return (
          <MuiLink
            component={Link}
            to={createPath({ resource: 'users', id: String(record.deleterId), type: 'show' })}
            onClick={(e) => e.stopPropagation()}
            data-testid="user-deleted-by"
          >
            {String(record.deleterEmail ?? record.deleterId)}
          </MuiLink>
        );
      }}
    />
  );
};
