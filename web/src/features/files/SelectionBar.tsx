import ContentCopyOutlined from '@mui/icons-material/ContentCopyOutlined';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import DownloadOutlined from '@mui/icons-material/DownloadOutlined';
import DriveFileMoveOutlined from '@mui/icons-material/DriveFileMoveOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import InfoOutlined from '@mui/icons-material/InfoOutlined';
import LockOpenOutlined from '@mui/icons-material/LockOpenOutlined';
import ManageAccountsOutlined from '@mui/icons-material/ManageAccountsOutlined';
import ShareOutlined from '@mui/icons-material/ShareOutlined';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import type { Item } from './files.api';
import type { MoveCopyMode } from './move-copy.machine';

/** What can be done with the items selected in the file browser; rename and details for one item only. */
export const SelectionBar = ({
  chosen,
  working,
  onDownload,
  onRename,
  onDetails,
  onShare,
  onMoveCopy,
  onTrash,
  onPermissions,
}: {
  chosen: Item[];
  /** A download or a trash task runs: neither starts again meanwhile. */
  working: boolean;
  onDownload: () => void;
  onRename: (item: Item) => void;
  onDetails: (item: Item) => void;
  onShare: () => void;
  onMoveCopy: (mode: MoveCopyMode) => void;
  onTrash: () => void;
  /** The team's folder permissions of one item: given only to the team's admin and co-admins. */
  onPermissions?: (item: Item) => void;
}) => {
  const { t } = useTranslation();
  const only = chosen.length === 1 ? chosen[0] : undefined;
  const encrypted = chosen.filter((item) => item.e2eeEnabled === true);
  const unlockLink =
    encrypted.length > 0
      ? `/axel-unlocker?${new URLSearchParams({ storageId: encrypted[0]!.storageId, itemIds: encrypted.map((i) => i.id).join(',') })}`
      : null;
  return (
    <Paper variant="outlined" sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, px: 2, py: 1, mb: 1 }} data-testid="selection-bar">
      <Typography variant="body2" sx={{ flex: 1 }}>
        {t('files.selected', { count: chosen.length })}
      </Typography>
      <Button size="small" startIcon={<DownloadOutlined />} onClick={onDownload} disabled={working} data-testid="action-download">
        {t('files.actions.download')}
      </Button>
      {unlockLink && (
        <Button size="small" startIcon={<LockOpenOutlined />} component={RouterLink} to={unlockLink} data-testid="action-unlock">
          {t('files.actions.unlock')}
        </Button>
      )}
      {only && (
        <>
          <Button size="small" startIcon={<EditOutlined />} onClick={() => onRename(only)} data-testid="action-rename">
            {t('files.actions.rename')}
          </Button>
          <Button size="small" startIcon={<InfoOutlined />} onClick={() => onDetails(only)} data-testid="action-details">
            {t('files.actions.details')}
          </Button>
          {onPermissions && (
            <Button size="small" startIcon={<ManageAccountsOutlined />} onClick={() => onPermissions(only)} data-testid="action-permissions">
              {t('files.permissions.open')}
            </Button>
          )}
        </>
      )}
      <Button size="small" startIcon={<ShareOutlined />} onClick={onShare} data-testid="action-share">
        {t('sharing.actions.share')}
      </Button>
      <Button size="small" startIcon={<ContentCopyOutlined />} onClick={() => onMoveCopy('copy')} data-testid="action-copy">
        {t('files.actions.copy')}
      </Button>
      <Button size="small" startIcon={<DriveFileMoveOutlined />} onClick={() => onMoveCopy('move')} data-testid="action-move">
        {t('files.actions.move')}
      </Button>
      <Button size="small" color="error" startIcon={<DeleteOutlined />} onClick={onTrash} disabled={working} data-testid="action-trash">
        {t('files.actions.trash')}
      </Button>
    </Paper>
  );
};
