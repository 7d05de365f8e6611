import { Typography } from '@mui/material';
import {
  ArrayInput,
  AutocompleteArrayInput,
  DateInput,
  FormDataConsumer,
  NumberInput,
  SelectInput,
  SimpleFormIterator,
  TextInput,
  useTranslate,
} from 'react-admin';
import { bytesToGb, centsToDollars, dayToIso, discountFormat, discountParse, dollarsToCents, gbToBytes, isoToDay, promoProductChoices } from './promoCodeForm';

const STATUS = ['active', 'inactive'].map((id) => ({ id, name: `resources.promocodes.statuses.${id}` }));
const RECURRENCE = ['once', 'recurring'].map((id) => ({ id, name: `resources.promocodes.recurrence.${id}` }));
const DISCOUNT_UNITS = ['usd', 'percent'].map((id) => ({ id, name: `resources.promocodes.discountUnits.${id}` }));
const CUSTOM_NAMES = ['state', 'barNumber'].map((id) => ({ id, name: `resources.promocodes.customFieldNames.${id}` }));
const PRODUCTS = promoProductChoices();

const Heading = ({ text }: { text: string }) => {
  const translate = useTranslate();
  return (
    <Typography variant="subtitle1" component="h2" sx={{ mt: 2 }}>
      {translate(text)}
    </Typography>
  );
};

const wide = { width: '100%', maxWidth: 560 };

/** The inputs of the create and edit forms; `editing` locks the code itself, which names the record. */
export const PromoCodeInputs = ({ editing = false }: { editing?: boolean }) => (
  <>
    <TextInput source="code" readOnly={editing} sx={wide} slotProps={{ htmlInput: { 'data-testid': 'promo-code' } }} />
    <TextInput source="title" sx={wide} slotProps={{ htmlInput: { 'data-testid': 'promo-title' } }} />
    {editing ? null : <SelectInput source="status" choices={STATUS} data-testid="promo-status" />}
    <AutocompleteArrayInput source="productIds" choices={PRODUCTS} sx={wide} data-testid="promo-products" />
    <Heading text="resources.promocodes.sections.price" />
    <TextInput
      source="price"
      format={centsToDollars}
      parse={dollarsToCents}
      helperText="resources.promocodes.help.price"
      slotProps={{ htmlInput: { 'data-testid': 'promo-price', inputMode: 'decimal' } }}
    />
    <SelectInput source="discount.unit" choices={DISCOUNT_UNITS} emptyText="resources.promocodes.discountUnits.none" data-testid="promo-discount-unit" />
    <FormDataConsumer>
      {({ formData }) => {
        const unit = (formData as { discount?: { unit?: unknown } }).discount?.unit;
        return (
          <TextInput
            source="discount.amount"
            format={discountFormat(unit)}
            parse={discountParse(unit)}
            helperText={unit === 'percent' ? 'resources.promocodes.help.percent' : 'resources.promocodes.help.dollars'}
            slotProps={{ htmlInput: { 'data-testid': 'promo-discount-amount', inputMode: 'decimal' } }}
          />
        );
      }}
    </FormDataConsumer>
    <NumberInput source="cycles" min={1} helperText="resources.promocodes.help.cycles" slotProps={{ htmlInput: { 'data-testid': 'promo-cycles' } }} />
    <SelectInput source="recurrence" choices={RECURRENCE} data-testid="promo-recurrence" />
    <NumberInput source="freeTrialDays" min={0} slotProps={{ htmlInput: { 'data-testid': 'promo-trial' } }} />
    <TextInput
      source="extraQuotaBytes"
      format={bytesToGb}
      parse={gbToBytes}
      helperText="resources.promocodes.help.storage"
      slotProps={{ htmlInput: { 'data-testid': 'promo-storage', inputMode: 'numeric' } }}
    />
    <Heading text="resources.promocodes.sections.validity" />
    <DateInput source="startDate" format={isoToDay} parse={dayToIso} slotProps={{ htmlInput: { 'data-testid': 'promo-start' } }} />
    <DateInput source="expiryDate" format={isoToDay} parse={dayToIso} slotProps={{ htmlInput: { 'data-testid': 'promo-expiry' } }} />
    <NumberInput source="numberOfUses" min={1} helperText="resources.promocodes.help.uses" slotProps={{ htmlInput: { 'data-testid': 'promo-uses' } }} />
    <Heading text="resources.promocodes.sections.customFields" />
    <ArrayInput source="customFields" label={false}>
      <SimpleFormIterator inline disableReordering>
        <SelectInput source="name" choices={CUSTOM_NAMES} />
        <NumberInput source="maxLength" min={1} max={20} />
        <NumberInput source="maxValue" min={1} max={10000} />
      </SimpleFormIterator>
    </ArrayInput>
    <TextInput source="notes" multiline minRows={2} sx={wide} />
  </>
);
