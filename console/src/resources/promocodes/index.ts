import LocalOfferIcon from '@mui/icons-material/LocalOffer';
import type { RaRecord } from 'react-admin';
import { PromoCodeCreate, PromoCodeEdit } from './PromoCodeCreate';
import { PromoCodeList } from './PromoCodeList';
import { PromoCodeShow } from './PromoCodeShow';

export default {
  list: PromoCodeList,
  show: PromoCodeShow,
  create: PromoCodeCreate,
  edit: PromoCodeEdit,
  icon: LocalOfferIcon,
  recordRepresentation: (record: RaRecord) => String(record.code ?? record.id),
};
