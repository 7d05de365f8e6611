import { Alert } from '@mui/material';
import {
  DeleteWithConfirmButton,
  EditButton,
  FunctionField,
  NumberField,
  SelectField,
  Show,
  SimpleShowLayout,
  TextField,
  TopToolbar,
  usePermissions,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { LocaleDateField } from '../../i18n/dates';
import { Features, hasFeature } from '../../auth/access';
import { bytesToGb, centsToDollars, promoProductChoices } from './promoCodeForm';
import { PromoStatusField } from './PromoCodeList';
import { PromoCodeToggle } from './PromoCodeToggle';

const PRODUCTS = promoProductChoices();
const NONE = '—';

/** Edit and toggle need admin:promocode:add, delete needs admin:promocode:delete; a staff member without them is told so. */
const ShowActions = () => {
  const { permissions } = usePermissions();
  const translate = useTranslate();
  const record = useRecordContext();
  const canEdit = hasFeature(permissions, Features.promoCodeAdd);
  const canDelete = hasFeature(permissions, Features.promoCodeDelete);
  const usedTimes = typeof record?.usedTimes === 'number' ? record.usedTimes : 0;
  return (
    <TopToolbar sx={{ alignItems: 'center' }}>
      {!canEdit && !canDelete ? (
        <Alert severity="info" sx={{ py: 0 }} data-testid="promo-read-only">
          {translate('resources.promocodes.readOnly')}
        </Alert>
      ) : null}
      {canEdit ? <PromoCodeToggle /> : null}
      {canEdit ? <EditButton data-testid="promo-edit" /> : null}
      {canDelete ? (
        <DeleteWithConfirmButton
          confirmTitle="resources.promocodes.confirmDelete"
          translateOptions={{ code: String(record?.code ?? '') }}
          // what deleting does to a code in use: no new uses; subscriptions keep the price they were given
          confirmContent={usedTimes > 0 ? 'resources.promocodes.confirmDeleteUsed' : 'resources.promocodes.confirmDeleteUnused'}
          contentTranslateOptions={{ smart_count: usedTimes }}
          data-testid="promo-delete"
        />
      ) : null}
    </TopToolbar>
  );
};

const ProductNames = (_: { label?: string }) => {
  const record = useRecordContext();
  const ids = Array.isArray(record?.productIds) ? (record.productIds as number[]) : [];
  return <span data-testid="promo-products-shown">{ids.map((id) => PRODUCTS.find((p) => p.id === id)?.name ?? String(id)).join(', ') || NONE}</span>;
};

const money = (cents: unknown) => (typeof cents === 'number' ? `$${centsToDollars(cents)}` : NONE);

export const PromoCodeShow = () => {
  const translate = useTranslate();
  return (
    <Show actions={<ShowActions />}>
      <SimpleShowLayout>
        <TextField source="code" data-testid="promo-show-code" />
        <TextField source="title" data-testid="promo-show-title" />
        <PromoStatusField label="resources.promocodes.fields.status" />
        <ProductNames label="resources.promocodes.fields.productIds" />
        <FunctionField source="price" render={(r) => money(r.price)} />
        <FunctionField
          source="discount"
          render={(r) => {
            const d = r.discount as { amount?: number; unit?: string } | null | undefined;
            if (!d || typeof d.amount !== 'number') return NONE;
            return d.unit === 'percent' ? `${d.amount}%` : money(d.amount);
          }}
          data-testid="promo-show-discount"
        />
        <FunctionField source="cycles" render={(r) => (r.cycles ?? translate('resources.promocodes.allCycles')) as string} />
        <SelectField source="recurrence" choices={['once', 'recurring'].map((id) => ({ id, name: `resources.promocodes.recurrence.${id}` }))} />
        <NumberField source="freeTrialDays" />
        <FunctionField source="extraQuotaBytes" render={(r) => (typeof r.extraQuotaBytes === 'number' ? `${bytesToGb(r.extraQuotaBytes)} GB` : NONE)} />
        <LocaleDateField source="startDate" />
        <LocaleDateField source="expiryDate" />
        <NumberField source="usedTimes" />
        <NumberField source="heldUses" />
        <FunctionField source="numberOfUses" render={(r) => (r.numberOfUses === null || r.numberOfUses === undefined ? '∞' : String(r.numberOfUses))} />
        <FunctionField
          source="customFields"
          render={(r) =>
            Array.isArray(r.customFields) && r.customFields.length > 0
              ? (r.customFields as { name: string; maxLength: number; maxValue: number | null }[])
                  .map((f) => `${translate(`resources.promocodes.customFieldNames.${f.name}`)} (≤ ${f.maxLength}${f.maxValue ? `, ≤ ${f.maxValue}` : ''})`)
                  .join('; ')
              : NONE
          }
        />
        <TextField source="notes" emptyText={NONE} />
        <LocaleDateField source="updatedAt" showTime emptyText={NONE} />
      </SimpleShowLayout>
    </Show>
  );
};
