import { Box, Chip, Typography } from '@mui/material';
import { Datagrid, FunctionField, List, NumberField, Pagination, SearchInput, SelectInput, TextField, useRecordContext, useTranslate } from 'react-admin';
import { LocaleDateField } from '../../i18n/dates';
import { RetryPinButton, UnpinButton } from './IpfsPinActions';
import { IPFS_PINS_PER_PAGE, PIN_STATUSES } from './ipfsPinsApi';

const STATUS_COLORS: Record<string, 'default' | 'info' | 'success' | 'error' | 'warning'> = {
  queued: 'default',
  pinning: 'info',
  pinned: 'success',
  failed: 'error',
  unpinned: 'warning',
};

/** The status as the Pinning Service API names it. */
const PinStatusField = (_: { label?: string; source?: string; sortable?: boolean }) => {
  const record = useRecordContext();
  const translate = useTranslate();
  if (!record) return null;
  return (
    <Chip
      size="small"
      color={STATUS_COLORS[String(record.status)] ?? 'default'}
      label={translate(`resources.ipfs-pins.statuses.${String(record.status)}`, { _: String(record.status) })}
      data-testid={`pin-status-${String(record.id)}`}
    />
  );
};

const bytes = (n: unknown) => {
  const v = Number(n);
  if (!Number.isFinite(v)) return '';
  if (v < 1024) return `${v} B`;
  if (v < 1024 * 1024) return `${(v / 1024).toFixed(1)} KiB`;
  return `${(v / 1024 / 1024).toFixed(1)} MiB`;
};

/** A long identifier that wraps anywhere on a phone. */
const Mono = ({ value }: { value: unknown }) => (
  <Typography component="span" sx={{ fontFamily: 'monospace', fontSize: 12, wordBreak: 'break-all' }}>
    {value ? String(value) : '—'}
  </Typography>
);

const NoPins = () => {
  const translate = useTranslate();
  return (
    <Typography color="text.secondary" sx={{ p: 2 }} data-testid="ipfs-pins-empty">
      {translate('resources.ipfs-pins.empty')}
    </Typography>
  );
};

/** A pin's history: why it failed, why it was removed, its public link. */
const PinDetails = () => {
  const record = useRecordContext();
  const translate = useTranslate();
  if (!record) return null;
  const line = (key: string, value: unknown) => (
    <Typography variant="body2" sx={{ wordBreak: 'break-all' }}>
      <strong>{translate(`resources.ipfs-pins.fields.${key}`)}:</strong> {value === null || value === undefined || value === '' ? '—' : String(value)}
    </Typography>
  );
  return (
    <Box sx={{ px: 2, py: 1 }} data-testid={`pin-details-${String(record.id)}`}>
      {line('service', record.service)}
      {line('blocks', record.blocks)}
      {line('attempts', record.attempts)}
      {line('failure', record.failure)}
      {line('removedReason', record.removedReason)}
      {line('url', record.url)}
      {line('fetchId', record.fetchId)}
    </Box>
  );
};

const filters = [
  <SearchInput key="q" source="q" alwaysOn data-testid="ipfs-pins-search" />,
  <SelectInput key="status" source="status" choices={PIN_STATUSES.map((id) => ({ id, name: `resources.ipfs-pins.statuses.${id}` }))} />,
];

/** The IPFS pinning section: every pin of a paid file with its status, size, owner and transaction. */
export const IpfsPinList = () => (
  <List
    sort={{ field: 'requestedAt', order: 'DESC' }}
    perPage={IPFS_PINS_PER_PAGE}
    pagination={<Pagination rowsPerPageOptions={[IPFS_PINS_PER_PAGE]} />}
    filters={filters}
    exporter={false}
    empty={false}
    actions={false}
  >
    <Datagrid rowClick="expand" expand={<PinDetails />} bulkActionButtons={false} empty={<NoPins />} data-testid="ipfs-pins-table">
      <PinStatusField source="status" label="resources.ipfs-pins.fields.status" sortable={false} />
      <FunctionField source="cid" sortable={false} render={(r) => <Mono value={r.cid} />} />
      <FunctionField source="size" sortable={false} render={(r) => bytes(r.size)} />
      <FunctionField source="ownerUsername" sortable={false} render={(r) => String(r.ownerEmail ?? r.ownerUsername ?? r.ownerId)} />
      <FunctionField source="txId" sortable={false} render={(r) => <Mono value={r.txId} />} />
      <NumberField source="attempts" sortable={false} />
      <LocaleDateField source="requestedAt" showTime />
      <TextField source="failure" sortable={false} emptyText="—" />
      <RetryPinButton />
      <UnpinButton />
    </Datagrid>
  </List>
);
