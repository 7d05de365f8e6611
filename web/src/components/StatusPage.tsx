import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

/** A centred card for the pages outside the signed-in area and for simple status messages. */
export const CenteredCard = ({ title, children, width = 440, testId }: { title?: string; children: ReactNode; width?: number; testId?: string }) => (
  <Box sx={{ display: 'flex', justifyContent: 'center', px: 2, py: { xs: 3, sm: 6 } }}>
    <Paper variant="outlined" sx={{ p: { xs: 3, sm: 4 }, width: '100%', maxWidth: width }} data-testid={testId}>
      {title && (
        <Typography variant="h5" component="h1" gutterBottom>
          {title}
        </Typography>
      )}
      {children}
    </Paper>
  </Box>
);
