import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';

const SECTIONS = ['service', 'account', 'content', 'encryption', 'payment', 'termination'] as const;

/** The terms of service text, in the interface language. */
export const TermsContent = () => {
  const { t } = useTranslation();
  return (
    <>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
        {t('terms.intro')}
      </Typography>
      {SECTIONS.map((s) => (
        <section key={s}>
          <Typography variant="subtitle2" component="h3" sx={{ mt: 2 }}>
            {t(`terms.sections.${s}.title`)}
          </Typography>
          <Typography variant="body2" sx={{ mb: 1.5 }}>
            {t(`terms.sections.${s}.body`)}
          </Typography>
        </section>
      ))}
    </>
  );
};
