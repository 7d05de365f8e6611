import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Snackbar from '@mui/material/Snackbar';
import { useTranslation } from 'react-i18next';
import { noticeStore, useNotices } from '../session/notices';

/** Shows app-wide notices one at a time; each stays 10 s (the specification's notice time). */
export const Notices = () => {
  const { t } = useTranslation();
  const notices = useNotices();
  const current = notices[0];
  if (!current) return null;
  return (
    <Snackbar
      key={current.id}
      open
      autoHideDuration={10_000}
      onClose={(_, reason) => {
        if (reason !== 'clickaway') noticeStore.dismiss(current.id);
      }}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
    >
      <Alert
        severity={current.severity}
        variant="filled"
        onClose={() => noticeStore.dismiss(current.id)}
        action={
          current.action ? (
            <Button color="inherit" size="small" onClick={() => noticeStore.act(current.id)} data-testid="notice-action">
              {t(current.action.key)}
            </Button>
          ) : undefined
        }
        data-testid="notice"
        sx={{ width: '100%' }}
      >
        {t(current.key, current.values ?? {})}
      </Alert>
    </Snackbar>
  );
};
