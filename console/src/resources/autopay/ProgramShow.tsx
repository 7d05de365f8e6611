import AddIcon from '@mui/icons-material/Add';
import { Dialog, DialogActions, DialogContent, DialogTitle, Stack } from '@mui/material';
import { useState } from 'react';
import {
  BooleanField,
  Button,
  Datagrid,
  DeleteButton,
  Form,
  NumberField,
  Pagination,
  ReferenceManyField,
  SaveButton,
  Show,
  SimpleShowLayout,
  TextField,
  TextInput,
  useCreate,
  useNotify,
  useRecordContext,
  useRefresh,
  useTranslate,
} from 'react-admin';
import { LocaleDateField } from '../../i18n/dates';
import { PAYEES } from './autopayApi';
import { ProgramShowActions } from './ProgramActions';
import { ProgramStatusField } from './ProgramFields';
import { canEdit, payeeErrors } from './programRules';
import { useStaffFeatures } from './useStaffFeatures';

export const PAYEES_PER_PAGE = 50;
export const PAYEE_FIELDS = ['email', 'amount', 'address', 'payerName', 'payeeName', 'transactionType', 'accountNotes'] as const;
const validatePayee = (values: Record<string, unknown>) =>
  payeeErrors(Object.fromEntries(PAYEE_FIELDS.map((f) => [f, typeof values[f] === 'string' ? (values[f] as string) : null])));

const AddPayee = () => {
  const record = useRecordContext();
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const [open, setOpen] = useState(false);
  const [create, { isPending }] = useCreate();
  const staff = useStaffFeatures();
  if (!record || !canEdit(record, staff)) return null;
  const save = (values: Record<string, unknown>) =>
    create(
      PAYEES,
      { data: { ...values, programId: record.id } },
      {
        onSuccess: () => {
          notify('resources.auto-pay.notifications.payeeAdded', { type: 'success' });
          setOpen(false);
          refresh();
        },
        onError: (error) => notify(error instanceof Error ? error.message : 'ra.notification.http_error', { type: 'error' }),
      },
    );
  return (
    <>
      <Button label="resources.auto-pay.payees.add" onClick={() => setOpen(true)} data-testid="autopay-payee-add">
        <AddIcon />
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} maxWidth="sm" fullWidth aria-labelledby="autopay-payee-title">
        <Form onSubmit={save} validate={validatePayee} defaultValues={Object.fromEntries(PAYEE_FIELDS.map((f) => [f, '']))}>
          <DialogTitle id="autopay-payee-title">{translate('resources.auto-pay.payees.add')}</DialogTitle>
          <DialogContent>
            <Stack>
              {PAYEE_FIELDS.map((f) => (
                <TextInput
                  key={f}
                  source={f}
                  label={`resources.auto-pay.payeeFields.${f}`}
                  fullWidth
                  slotProps={{ htmlInput: { 'data-testid': `autopay-payee-${f}` } }}
                />
              ))}
            </Stack>
          </DialogContent>
          <DialogActions>
            <Button label="ra.action.cancel" onClick={() => setOpen(false)} />
            <SaveButton disabled={isPending} data-testid="autopay-payee-save" />
          </DialogActions>
        </Form>
      </Dialog>
    </>
  );
};

const PayeesGrid = () => {
  const record = useRecordContext();
  const translate = useTranslate();
  const staff = useStaffFeatures();
  if (!record) return null;
  const editable = canEdit(record, staff);
  return (
    <Stack spacing={1} sx={{ width: '100%' }}>
      <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center' }}>
        <strong>{translate('resources.auto-pay.payees.title')}</strong>
        <AddPayee />
      </Stack>
      <ReferenceManyField
        reference={PAYEES}
        target="programId"
        sort={{ field: 'position', order: 'ASC' }}
        perPage={PAYEES_PER_PAGE}
        pagination={<Pagination rowsPerPageOptions={[PAYEES_PER_PAGE]} />}
      >
        <Datagrid
          bulkActionButtons={false}
          rowClick={false}
          empty={<span data-testid="autopay-payees-empty">{translate('resources.auto-pay.payees.empty')}</span>}
          data-testid="autopay-payees"
        >
          {PAYEE_FIELDS.map((f) => (
            <TextField key={f} source={f} label={`resources.auto-pay.payeeFields.${f}`} emptyText="—" sortable={false} />
          ))}
          <ProgramStatusField source="payoutStatus" label="resources.auto-pay.payeeFields.payoutStatus" sortable={false} />
          <TextField source="paidTo" label="resources.auto-pay.payeeFields.paidTo" emptyText="—" sortable={false} />
          <TextField source="txid" label="resources.auto-pay.payeeFields.txid" emptyText="—" sortable={false} />
          {editable ? <DeleteButton mutationMode="pessimistic" redirect={false} data-testid="autopay-payee-delete" /> : null}
        </Datagrid>
      </ReferenceManyField>
    </Stack>
  );
};

export const ProgramShow = () => (
  <Show actions={<ProgramShowActions />}>
    <SimpleShowLayout>
      <TextField source="name" />
      <TextField source="description" />
      <ProgramStatusField source="status" />
      <TextField source="submittedByEmail" label="resources.auto-pay.fields.submittedBy" emptyText="—" />
      <TextField source="authorisedByName" label="resources.auto-pay.fields.authorisedBy" emptyText="—" data-testid="autopay-authorised-by" />
      <LocaleDateField source="createdAt" showTime />
      <NumberField source="usersCount" />
      <BooleanField source="imported" />
      <TextField source="totalTokens" />
      <NumberField source="totalNewAddresses" />
      <PayeesGrid />
    </SimpleShowLayout>
  </Show>
);
