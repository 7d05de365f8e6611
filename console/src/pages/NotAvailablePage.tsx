import ConstructionIcon from '@mui/icons-material/Construction';
import { Card, CardContent, Stack, Typography } from '@mui/material';
import { Title, useTranslate } from 'react-admin';

/** The one page every not-yet-built section shows. */
export const NotAvailablePage = ({ section }: { section: string }) => {
  const translate = useTranslate();
  const name = translate(section);
  return (
    <Card sx={{ mt: 2 }} data-testid="not-available">
      <Title title={name} />
      <CardContent>
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
          <ConstructionIcon color="disabled" fontSize="large" />
          <div>
            <Typography variant="h6" component="h1">
              {translate('console.notAvailable.title')}
            </Typography>
            <Typography color="text.secondary">{translate('console.notAvailable.body', { section: name })}</Typography>
          </div>
        </Stack>
      </CardContent>
    </Card>
  );
};
