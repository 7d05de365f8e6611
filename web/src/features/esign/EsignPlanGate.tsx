import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import type { UserInfo } from '../../api/types';
import { useSession } from '../../session/store';

/** eSign is a plan feature (Professional, Team and Enterprise). */
export const hasEsign = (user: Pick<UserInfo, 'planFeatures'> | null | undefined) => Boolean(user?.planFeatures?.includes('esign'));

/** The e-sign screens for plans that have it; others get the plan message and the way to the plans. */
export const EsignPlanGate = ({ children }: { children: ReactNode }) => {
  const { t } = useTranslation();
  const { user } = useSession();
  if (hasEsign(user)) return children;
  return (
    <Container maxWidth="sm" sx={{ py: 4 }}>
      <Alert
        severity="info"
        data-testid="esign-plan-required"
        action={
          <Button component={RouterLink} to="/storages/plans" color="inherit" size="small" data-testid="esign-see-plans">
            {t('esign.plan.seePlans')}
          </Button>
        }
      >
        {t('errors.ESIGN_PLAN_REQUIRED')}
      </Alert>
    </Container>
  );
};
