import { Chip, Typography } from '@mui/material';
import {
  CreateButton,
  Datagrid,
  FunctionField,
  List,
  NumberField,
  Pagination,
  SearchInput,
  SelectInput,
  TextField,
  TopToolbar,
  usePermissions,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { LocaleDateField } from '../../i18n/dates';
import { Features, hasFeature } from '../../auth/access';
import { PromoCodeToggle } from './PromoCodeToggle';
import { PROMOCODES_PER_PAGE } from './promoCodesApi';

export const PromoStatusField = (_: { label?: string; source?: string; sortable?: boolean }) => {
  const record = useRecordContext();
  const translate = useTranslate();
  if (!record) return null;
  const active = record.status === 'active';
  return (
    <Chip
      size="small"
      color={active ? 'success' : 'default'}
      label={translate(`resources.promocodes.statuses.${active ? 'active' : 'inactive'}`)}
      data-testid={`promo-status-${String(record.code ?? record.id)}`}
    />
  );
};

const NoCodes = () => {
  const translate = useTranslate();
  return (
    <Typography color="text.secondary" sx={{ p: 2 }} data-testid="promocodes-empty">
      {translate('resources.promocodes.empty')}
    </Typography>
  );
};

const ListActions = () => {
  const { permissions } = usePermissions();
  return <TopToolbar>{hasFeature(permissions, Features.promoCodeAdd) ? <CreateButton data-testid="promocodes-create" /> : null}</TopToolbar>;
};

const filters = [
  <SearchInput key="q" source="q" alwaysOn data-testid="promocodes-search" />,
  <SelectInput key="status" source="status" choices={['active', 'inactive'].map((id) => ({ id, name: `resources.promocodes.statuses.${id}` }))} />,
];

export const PromoCodeList = () => (
  <List
    sort={{ field: 'updatedAt', order: 'DESC' }}
    perPage={PROMOCODES_PER_PAGE}
    pagination={<Pagination rowsPerPageOptions={[PROMOCODES_PER_PAGE]} />}
    actions={<ListActions />}
    filters={filters}
    exporter={false}
    empty={false}
  >
    <Datagrid rowClick="show" bulkActionButtons={false} empty={<NoCodes />} data-testid="promocodes-table">
      <TextField source="code" />
      <TextField source="title" />
      <PromoStatusField source="status" label="resources.promocodes.fields.status" />
      <NumberField source="usedTimes" />
      <FunctionField source="numberOfUses" render={(r) => (r.numberOfUses === null || r.numberOfUses === undefined ? '∞' : String(r.numberOfUses))} />
      <LocaleDateField source="startDate" />
      <LocaleDateField source="expiryDate" />
      <LocaleDateField source="updatedAt" showTime />
      <PromoCodeToggle />
    </Datagrid>
  </List>
);
