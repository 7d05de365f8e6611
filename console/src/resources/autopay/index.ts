import PaymentsIcon from '@mui/icons-material/Payments';
import type { RaRecord } from 'react-admin';
import { ProgramCreate, ProgramEdit } from './ProgramCreate';
import { ProgramList } from './ProgramList';
import { ProgramShow } from './ProgramShow';

export default {
  list: ProgramList,
  show: ProgramShow,
  create: ProgramCreate,
  edit: ProgramEdit,
  icon: PaymentsIcon,
  recordRepresentation: (record: RaRecord) => String(record.name ?? record.id),
};
