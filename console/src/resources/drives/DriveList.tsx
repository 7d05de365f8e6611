import { Button, Dialog, DialogActions, DialogContent, DialogTitle, TextField as MuiTextField, Typography } from '@mui/material';
import { useState } from 'react';
import {
  BooleanField,
  Datagrid,
  FunctionField,
  List,
  NumberField,
  Pagination,
  SearchInput,
  SelectInput,
  TextField,
  useNotify,
  useRecordContext,
  useRefresh,
  useTranslate,
} from 'react-admin';
import { httpClient } from '../../data/dataProvider';
import { LocaleDateField } from '../../i18n/dates';

/** CloudLocker lists are 10 a page (spec §9). */
export const DRIVES_PER_PAGE = 10;
const NONE = '—';

const filters = [
  <SearchInput key="q" source="q" alwaysOn />,
  <SelectInput
    key="status"
    source="status"
    alwaysOn
    choices={[
      { id: 'online', name: 'resources.drives.status.online' },
      { id: 'offline', name: 'resources.drives.status.offline' },
    ]}
  />,
  <SelectInput
    key="bound"
    source="bound"
    alwaysOn
    choices={[
      { id: 'true', name: 'resources.drives.bound.yes' },
      { id: 'false', name: 'resources.drives.bound.no' },
    ]}
  />,
];

interface DriveRecord {
  readonly id: string;
  readonly bound: boolean;
  readonly status: 'online' | 'offline';
}

/** Unbind and delete (typing `delete`), for staff holding admin:cloudlocker:unbind; the API refuses the others. */
const DriveActions = () => {
  const record = useRecordContext<DriveRecord>();
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const [deleting, setDeleting] = useState(false);
  const [typed, setTyped] = useState('');
  if (!record) return null;
  const call = async (method: 'POST' | 'DELETE', path: string, body: unknown, done: string) => {
    try {
      await httpClient(`/api/admin/drives/${encodeURIComponent(record.id)}${path}`, { method, body: JSON.stringify(body) });
      notify(done, { type: 'info' });
      refresh();
    } catch (error) {
      notify((error as { message?: string }).message ?? 'ra.notification.http_error', { type: 'error' });
    }
  };
  return (
    <>
      {record.bound ? (
        <Button size="small" data-testid="drive-unbind" onClick={() => call('POST', '/unbind/', {}, 'resources.drives.unbound')}>
          {translate('resources.drives.actions.unbind')}
        </Button>
      ) : null}
      <Button size="small" color="error" data-testid="drive-delete" onClick={() => setDeleting(true)}>
        {translate('resources.drives.actions.delete')}
      </Button>
      <Dialog open={deleting} onClose={() => setDeleting(false)}>
        <DialogTitle>{translate('resources.drives.actions.delete')}</DialogTitle>
        <DialogContent>
          <Typography sx={{ mb: 2 }}>{translate('resources.drives.confirmDelete')}</Typography>
          <MuiTextField
            autoFocus
            fullWidth
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            slotProps={{ htmlInput: { 'data-testid': 'drive-delete-confirm' } }}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setDeleting(false)}>{translate('ra.action.cancel')}</Button>
          <Button
            color="error"
            disabled={typed.trim().toLowerCase() !== 'delete'}
            onClick={() => {
              setDeleting(false);
              void call('DELETE', '', { confirm: typed }, 'resources.drives.deleted');
            }}
          >
            {translate('resources.drives.actions.delete')}
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
};

/** The CloudLockers section: `GET /admin/drives/` with status, bound and search filters, 10 a page. */
export const DriveList = () => {
  const translate = useTranslate();
  return (
    <List
      filters={filters}
      sort={{ field: 'registeredAt', order: 'DESC' }}
      perPage={DRIVES_PER_PAGE}
      pagination={<Pagination rowsPerPageOptions={[DRIVES_PER_PAGE]} />}
      exporter={false}
      empty={false}
    >
      <Datagrid bulkActionButtons={false} rowClick={false} data-testid="drives-table">
        <TextField source="serial" sortable />
        <TextField source="mac" sortable={false} />
        <FunctionField<DriveRecord> source="status" sortable={false} render={(r) => translate(`resources.drives.status.${r.status}`)} />
        <TextField source="externalIp" sortable={false} emptyText={NONE} />
        <LocaleDateField source="connectionCheckedAt" showTime emptyText={NONE} />
        <BooleanField source="bound" sortable={false} />
        <LocaleDateField source="boundAt" showTime emptyText={NONE} />
        <TextField source="owner" sortable={false} emptyText={NONE} />
        <NumberField source="sizeUsed" sortable={false} />
        <NumberField source="sizeTotal" sortable={false} />
        <DriveActions />
      </Datagrid>
    </List>
  );
};
