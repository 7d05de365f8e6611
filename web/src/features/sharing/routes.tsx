import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation, useParams } from 'react-router';
import { NotFoundPage } from '../../components/NotFoundPage';
import { useSession } from '../../session/store';
import { SharePage } from './SharePage';

/** /shares/:shareId/* and /private-share/:shareId/*: the param is the share's link id. */
export const ShareLinkRoute = () => {
  const { shareId } = useParams();
  const { pathname } = useLocation();
  if (!shareId) return <NotFoundPage />;
  const routeKind = /^\/private-share\//i.test(pathname) ? 'private' : 'public';
  return <SharePage key={`${routeKind}-${shareId}`} linkId={shareId} routeKind={routeKind} />;
};

/**
 * shares_shared/:id?/entries/:hash?: a signed-in recipient opens a share sent to them; their own
 * e-mail stands for the recipient e-mail. The API has no call listing the shares sent to a user,
 * so without an id the page says where such links come from.
 */
export const SharesSharedRoute = () => {
  const { t } = useTranslation();
  const { id } = useParams();
  const { user } = useSession();
  if (id) return <SharePage key={id} linkId={id} routeKind="private" />;
  return (
    <Container maxWidth="sm" sx={{ py: 6 }} data-testid="shares-shared">
      <Typography variant="h5" component="h1" gutterBottom>
        {t('sharing.shared.title')}
      </Typography>
      <Alert severity="info">{t('sharing.shared.body')}</Alert>
      {!user && (
        <Button component={RouterLink} to="/signin?redirect=%2Fshares_shared" variant="contained" sx={{ mt: 2 }}>
          {t('common.toSignIn')}
        </Button>
      )}
    </Container>
  );
};
