import StorageIcon from '@mui/icons-material/Storage';
import type { RaRecord } from 'react-admin';
import { DatabaseList } from './DatabaseList';

export default {
  list: DatabaseList,
  icon: StorageIcon,
  recordRepresentation: (record: RaRecord) => String(record.email ?? record.id),
};
