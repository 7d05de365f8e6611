import Step from '@mui/material/Step';
import StepLabel from '@mui/material/StepLabel';
import Stepper from '@mui/material/Stepper';
import { useTranslation } from 'react-i18next';

const STEPS = ['documents', 'prepare', 'preview'] as const;

/** Where the owner is in making a package: documents, signers and fields, review and send. */
export const WizardSteps = ({ active }: { active: 0 | 1 | 2 }) => {
  const { t } = useTranslation();
  return (
    <Stepper activeStep={active} alternativeLabel sx={{ mb: 3 }} data-testid="esign-steps">
      {STEPS.map((s) => (
        <Step key={s}>
          <StepLabel>{t(`esign.steps.${s}`)}</StepLabel>
        </Step>
      ))}
    </Stepper>
  );
};

/** The password the owner chose in step 1, kept in memory only until the package is sent. */
export const draftPasswords = new Map<string, string>();
