import SearchOffIcon from '@mui/icons-material/SearchOff';
import { Button, Card, CardContent, Stack, Typography } from '@mui/material';
import { Link } from 'react-router-dom';
import { Title, useBasename, useTranslate } from 'react-admin';

/**
 * The console's own 404: react-admin's default adds a period after a message that already ends
 * with one.
 */
export const NotFoundPage = () => {
  const translate = useTranslate();
  const basename = useBasename();
  return (
    <Card sx={{ mt: 2 }} data-testid="not-found">
      <Title title="console.notFound.title" />
      <CardContent>
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
          <SearchOffIcon color="disabled" fontSize="large" />
          <div>
            <Typography variant="h6" component="h1">
              {translate('console.notFound.title')}
            </Typography>
            <Typography color="text.secondary" data-testid="not-found-text">
              {translate('console.notFound.body')}
            </Typography>
            <Button component={Link} to={`${basename}/dashboard`} sx={{ mt: 1, px: 0 }}>
              {translate('console.notFound.back')}
            </Button>
          </div>
        </Stack>
      </CardContent>
    </Card>
  );
};
