import { createTheme } from '@mui/material/styles';

export const theme = createTheme({
  palette: {
    primary: { main: '#1f5fbf' },
    secondary: { main: '#0f8a7e' },
    background: { default: '#f5f7fb' },
  },
  shape: { borderRadius: 8 },
  components: {
    MuiButton: { defaultProps: { disableElevation: true } },
    MuiTextField: { defaultProps: { fullWidth: true, margin: 'normal' } },
  },
});
