import DescriptionOutlined from '@mui/icons-material/DescriptionOutlined';
import FolderOutlined from '@mui/icons-material/FolderOutlined';
import ImageOutlined from '@mui/icons-material/ImageOutlined';
import Checkbox from '@mui/material/Checkbox';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TableSortLabel from '@mui/material/TableSortLabel';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { formatDateTime, localeTag } from '../../components/i18nHelpers';
import { isFolder, type Item, type SortBy, type SortOrder } from './files.api';
import { formatBytes, locationLabel, previewKind } from './format';

export interface Sorting {
  sortBy: SortBy;
  sortOrder: SortOrder;
}

/** Below the `sm` breakpoint (phones) size and date sit under the name instead of in columns of their own. */
const WIDE = { display: { xs: 'none', sm: 'table-cell' } } as const;

const COLUMNS: { key: SortBy; labelKey: string; align?: 'right'; width?: number; wide?: boolean }[] = [
  { key: 'name', labelKey: 'files.columns.name' },
  { key: 'size', labelKey: 'files.columns.size', align: 'right', width: 110, wide: true },
  { key: 'modifiedAt', labelKey: 'files.columns.modified', width: 190, wide: true },
];

/** One line, cut with an ellipsis; the whole text stays in the title. */
const oneLine = { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', minWidth: 0 } as const;

/** A search's results come from anywhere in the storage: each says where it is, and that folder opens from there. */
interface LocationColumn {
  /** The storage's name, the first step of each location. */
  rootName: string;
  /** Opens the folder (null: the storage's root). */
  onOpen: (folderId: string | null) => void;
}

/** The list of a folder, a search or the trash: selectable rows, sortable columns. */
export const FileTable = ({
  items,
  selected,
  onSelect,
  sorting,
  onSort,
  onOpen,
  location,
  testId = 'file-table',
}: {
  items: Item[];
  selected: ReadonlySet<string>;
  onSelect: (ids: Set<string>) => void;
  sorting?: Sorting;
  onSort?: (sorting: Sorting) => void;
  onOpen?: (item: Item) => void;
  location?: LocationColumn;
  testId?: string;
}) => {
  const { t, i18n } = useTranslation();
  const tag = localeTag(i18n.language);
  const all = items.length > 0 && items.every((i) => selected.has(i.id));
  const some = items.some((i) => selected.has(i.id));
  const toggle = (id: string) => {
    const next = new Set(selected);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    onSelect(next);
  };
  /** The folder a result is in, as a link that opens it. */
  const whereLink = (item: Item, testId: string, variant: 'body2' | 'caption') => {
    if (!location) return null;
    const label = locationLabel(item.location, location.rootName);
    return (
      <Link
        component="button"
        type="button"
        variant={variant}
        underline="hover"
        onClick={() => location.onOpen(item.parentId ?? null)}
        title={label}
        aria-label={t('files.search.openLocation', { folder: label })}
        sx={{ ...oneLine, display: 'block', maxWidth: '100%', textAlign: 'left' }}
        data-testid={testId}
      >
        {label}
      </Link>
    );
  };
  return (
    // a fixed layout lets a long name give way (cut with an ellipsis) instead of widening the page
    <Table size="small" data-testid={testId} aria-label={t('files.title')} sx={{ tableLayout: 'fixed', width: '100%' }}>
      <TableHead>
        <TableRow>
          <TableCell padding="checkbox" sx={{ width: 48 }}>
            <Checkbox
              checked={all}
              indeterminate={some && !all}
              onChange={() => onSelect(all ? new Set() : new Set(items.map((i) => i.id)))}
              slotProps={{ input: { 'aria-label': t('files.selectAll') } }}
            />
          </TableCell>
          {COLUMNS.map((c) => (
            <TableCell
              key={c.key}
              align={c.align}
              sx={{ width: c.width, ...(c.wide ? WIDE : {}) }}
              sortDirection={sorting?.sortBy === c.key ? (sorting.sortOrder === 'ASC' ? 'asc' : 'desc') : false}
            >
              {sorting && onSort ? (
                <TableSortLabel
                  active={sorting.sortBy === c.key}
                  direction={sorting.sortBy === c.key && sorting.sortOrder === 'DESC' ? 'desc' : 'asc'}
                  onClick={() => onSort({ sortBy: c.key, sortOrder: sorting.sortBy === c.key && sorting.sortOrder === 'ASC' ? 'DESC' : 'ASC' })}
                  data-testid={`sort-${c.key}`}
                >
                  {t(c.labelKey)}
                </TableSortLabel>
              ) : (
                t(c.labelKey)
              )}
            </TableCell>
          ))}
          {location && <TableCell sx={{ width: '28%', ...WIDE }}>{t('files.columns.location')}</TableCell>}
        </TableRow>
      </TableHead>
      <TableBody>
        {items.map((item) => {
          const folder = isFolder(item);
          const stamp = item.modifiedAt ?? item.createdAt;
          const when = stamp ? formatDateTime(stamp, i18n.language) : '';
          const icon = folder ? (
            <FolderOutlined color="primary" fontSize="small" />
          ) : previewKind(item) === 'image' ? (
            <ImageOutlined fontSize="small" />
          ) : (
            <DescriptionOutlined fontSize="small" />
          );
          return (
            <TableRow key={item.id} hover selected={selected.has(item.id)} data-testid="file-row" data-name={item.name} data-label={item.label}>
              <TableCell padding="checkbox">
                <Checkbox
                  checked={selected.has(item.id)}
                  onChange={() => toggle(item.id)}
                  slotProps={{ input: { 'aria-label': t('files.selectItem', { name: item.name }) } }}
                />
              </TableCell>
              <TableCell>
                <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, minWidth: 0 }}>
                  {icon}
                  <Box sx={{ minWidth: 0, flex: 1 }}>
                    {onOpen ? (
                      <Link
                        component="button"
                        type="button"
                        underline="hover"
                        onClick={() => onOpen(item)}
                        title={item.name}
                        sx={{ ...oneLine, display: 'block', maxWidth: '100%', textAlign: 'left' }}
                        data-testid="file-open"
                      >
                        {item.name}
                      </Link>
                    ) : (
                      <Box component="span" title={item.name} sx={{ ...oneLine, display: 'block' }}>
                        {item.name}
                      </Box>
                    )}
                    <Typography variant="caption" color="text.secondary" sx={{ ...oneLine, display: { xs: 'block', sm: 'none' } }} data-testid="file-row-meta">
                      {[folder ? null : formatBytes(item.size, tag), when].filter(Boolean).join(' · ')}
                    </Typography>
                    {/* a phone has no room for the location column: it sits under the name */}
                    {location && <Box sx={{ display: { xs: 'block', sm: 'none' } }}>{whereLink(item, 'file-row-location-below', 'caption')}</Box>}
                  </Box>
                </Box>
              </TableCell>
              <TableCell align="right" sx={WIDE}>
                {folder ? '' : formatBytes(item.size, tag)}
              </TableCell>
              <TableCell sx={WIDE}>{when}</TableCell>
              {location && <TableCell sx={WIDE}>{whereLink(item, 'file-row-location', 'body2')}</TableCell>}
            </TableRow>
          );
        })}
      </TableBody>
    </Table>
  );
};
