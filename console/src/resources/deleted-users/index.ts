import PersonOffIcon from '@mui/icons-material/PersonOff';
import type { RaRecord } from 'react-admin';
import { DeletedUserList } from './DeletedUserList';

export default {
  list: DeletedUserList,
  icon: PersonOffIcon,
  recordRepresentation: (record: RaRecord) => String(record.email ?? record.id),
};
