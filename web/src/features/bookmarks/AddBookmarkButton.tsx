import BookmarkAddOutlined from '@mui/icons-material/BookmarkAddOutlined';
import BookmarkAddedOutlined from '@mui/icons-material/BookmarkAddedOutlined';
import Button, { type ButtonProps } from '@mui/material/Button';
import Tooltip from '@mui/material/Tooltip';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { toApiError, type NormalisedError } from '../../api/errors';
import { translateError } from '../../components/i18nHelpers';
import { useLoad } from '../../components/useLoad';
import { useSession } from '../../session/store';
import { bookmarksApi, type Bookmark } from './bookmarks.api';

/**
 * "Add bookmark" for a share page: keeps the share opened by `linkId` in the signed-in user's
 * bookmarks (described by the share's title), and once kept links to the bookmarks. Renders nothing
 * for a visitor who is not signed in.
 */
export const AddBookmarkButton = ({
  linkId,
  size = 'small',
  variant = 'outlined',
}: {
  linkId: string;
  size?: ButtonProps['size'];
  variant?: ButtonProps['variant'];
}) => {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const kept = useLoad(user ? () => bookmarksApi.ofLink(linkId).catch(() => null) : null, [user, linkId]);
  // the bookmark just added here stands until the share shown changes
  const [added, setAdded] = useState<Bookmark | null>(null);
  const bookmark = added?.shareLinkId === linkId ? added : kept.data;
  const [error, setError] = useState<NormalisedError | null>(null);
  const [busy, setBusy] = useState(false);

  if (!user || bookmark === undefined) return null;
  if (bookmark)
    return (
      <Button size={size} variant={variant} component={RouterLink} to="/files/bookmarks" startIcon={<BookmarkAddedOutlined />} data-testid="bookmark-added">
        {t('bookmarks.bookmarked')}
      </Button>
    );
  return (
    <Tooltip title={error ? translateError(t, i18n.language, error) : ''} open={error !== null} onClose={() => setError(null)}>
      <Button
        size={size}
        variant={variant}
        startIcon={<BookmarkAddOutlined />}
        disabled={busy}
        data-testid="bookmark-add"
        onClick={() => {
          setBusy(true);
          setError(null);
          bookmarksApi
            .add(linkId)
            .then(setAdded)
            .catch(async (e: unknown) => {
              const failure = toApiError(e);
              // bookmarked meanwhile (another tab): show it as kept
              if (failure.code === 'BOOKMARK_EXISTS') setAdded(await bookmarksApi.ofLink(linkId).catch(() => null));
              else setError(failure.toJSON());
            })
            .finally(() => setBusy(false));
        }}
      >
        {t('bookmarks.add')}
      </Button>
    </Tooltip>
  );
};
