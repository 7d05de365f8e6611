import PeopleIcon from '@mui/icons-material/People';
import type { RaRecord } from 'react-admin';
import { UserCreate } from './UserCreate';
import { UserList } from './UserList';
import { UserShow } from './UserShow';

export default {
  list: UserList,
  show: UserShow,
  create: UserCreate,
  icon: PeopleIcon,
  recordRepresentation: (record: RaRecord) => String(record.email ?? record.id),
};
