import PushPinIcon from '@mui/icons-material/PushPin';
import type { RaRecord } from 'react-admin';
import { IpfsPinList } from './IpfsPinList';

export default {
  list: IpfsPinList,
  icon: PushPinIcon,
  recordRepresentation: (record: RaRecord) => String(record.cid ?? record.id),
};
