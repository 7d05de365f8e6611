import RouterIcon from '@mui/icons-material/Router';
import type { RaRecord } from 'react-admin';
import { DriveList } from './DriveList';

export default {
  list: DriveList,
  icon: RouterIcon,
  recordRepresentation: (record: RaRecord) => String(record.serial ?? record.id),
};
