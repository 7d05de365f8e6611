import { Alert } from '@mui/material';
import { Create, Edit, SimpleForm, TextInput, useRecordContext, useRedirect, useTranslate, type RaRecord } from 'react-admin';
import { zodValidate } from '../../forms/zodValidate';
import { PROGRAMS } from './autopayApi';
import { programSchema } from './programForm';
import { canEdit } from './programRules';
import { useStaffFeatures } from './useStaffFeatures';

const validateProgram = zodValidate(programSchema);

const ProgramInputs = () => (
  <>
    <TextInput source="name" fullWidth slotProps={{ htmlInput: { 'data-testid': 'autopay-name', maxLength: 255 } }} />
    <TextInput source="description" fullWidth multiline minRows={3} slotProps={{ htmlInput: { 'data-testid': 'autopay-description' } }} />
  </>
);

/** A new program starts as a draft; its page then opens the CSV import. */
export const ProgramCreate = () => {
  const redirect = useRedirect();
  return (
    <Create
      title="resources.auto-pay.create.title"
      mutationOptions={{ onSuccess: (data: RaRecord) => redirect(() => `/${PROGRAMS}/${encodeURIComponent(String(data.id))}/show?import=1`) }}
    >
      <SimpleForm validate={validateProgram} data-testid="autopay-create-form">
        <ProgramInputs />
      </SimpleForm>
    </Create>
  );
};

const EditGuard = () => {
  const record = useRecordContext();
  const translate = useTranslate();
  const staff = useStaffFeatures();
  if (!record || canEdit(record, staff)) return <ProgramInputs />;
  return (
    <Alert severity="info" data-testid="autopay-edit-locked">
      {translate('resources.auto-pay.editLocked', { status: translate(`resources.auto-pay.statuses.${String(record.status)}`, { _: String(record.status) }) })}
    </Alert>
  );
};

export const ProgramEdit = () => (
  <Edit mutationMode="pessimistic" redirect="show">
    <SimpleForm validate={validateProgram} data-testid="autopay-edit-form">
      <EditGuard />
    </SimpleForm>
  </Edit>
);
