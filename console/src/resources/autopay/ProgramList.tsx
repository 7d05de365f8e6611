import { BooleanField, CreateButton, Datagrid, List, NumberField, Pagination, TextField, TopToolbar } from 'react-admin';
import { LocaleDateField } from '../../i18n/dates';
import { ProgramStatusField } from './ProgramFields';

export const PROGRAMS_PER_PAGE = 25;

export const ProgramList = () => (
  <List
    sort={{ field: 'createdAt', order: 'DESC' }}
    perPage={PROGRAMS_PER_PAGE}
    pagination={<Pagination rowsPerPageOptions={[PROGRAMS_PER_PAGE]} />}
    actions={
      <TopToolbar>
        <CreateButton data-testid="autopay-create" />
      </TopToolbar>
    }
    exporter={false}
    empty={false}
  >
    <Datagrid rowClick="show" bulkActionButtons={false} data-testid="autopay-table">
      <TextField source="name" />
      <ProgramStatusField source="status" />
      <TextField source="authorisedByName" label="resources.auto-pay.fields.authorisedBy" emptyText="—" sortable={false} data-testid="autopay-authorised-by" />
      <LocaleDateField source="createdAt" showTime />
      <NumberField source="usersCount" />
      <BooleanField source="imported" />
      <TextField source="totalTokens" />
      <NumberField source="totalNewAddresses" />
    </Datagrid>
  </List>
);
