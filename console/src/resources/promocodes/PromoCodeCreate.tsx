import { Alert } from '@mui/material';
import { Create, Edit, SimpleForm, Toolbar, SaveButton, usePermissions, useTranslate } from 'react-admin';
import { Features, hasFeature } from '../../auth/access';
import { zodValidate } from '../../forms/zodValidate';
import { promoCodeFormSchema, withNulls } from './promoCodeForm';
import { PromoCodeInputs } from './PromoCodeInputs';

const validateValues = zodValidate(promoCodeFormSchema, { emptyAs: null });
const validate = (values: Record<string, unknown>) => validateValues(withNulls(values) as Record<string, unknown>);

/** What the API receives: the form's values as the schema reads them (blank inputs become null). */
export const toPromoCodeBody = (values: Record<string, unknown>) => promoCodeFormSchema.parse(withNulls(values));

const defaults = () => {
  const today = new Date().toISOString().slice(0, 10);
  return { status: 'active', recurrence: 'recurring', freeTrialDays: 0, productIds: [], customFields: [], startDate: `${today}T00:00:00.000Z` };
};

const Refused = () => {
  const translate = useTranslate();
  return (
    <Alert severity="info" sx={{ mt: 2 }} data-testid="promo-refused">
      {translate('resources.promocodes.refused')}
    </Alert>
  );
};

const FormToolbar = () => (
  <Toolbar>
    <SaveButton data-testid="promo-save" />
  </Toolbar>
);

export const PromoCodeCreate = () => {
  const { permissions, isPending } = usePermissions();
  if (!isPending && !hasFeature(permissions, Features.promoCodeAdd)) return <Refused />;
  return (
    <Create redirect="show" transform={toPromoCodeBody}>
      <SimpleForm validate={validate} defaultValues={defaults()} toolbar={<FormToolbar />} data-testid="promo-form">
        <PromoCodeInputs />
      </SimpleForm>
    </Create>
  );
};

export const PromoCodeEdit = () => {
  const { permissions, isPending } = usePermissions();
  if (!isPending && !hasFeature(permissions, Features.promoCodeAdd)) return <Refused />;
  return (
    <Edit redirect="show" transform={toPromoCodeBody} mutationMode="pessimistic">
      <SimpleForm validate={validate} toolbar={<FormToolbar />} data-testid="promo-form">
        <PromoCodeInputs editing />
      </SimpleForm>
    </Edit>
  );
};
