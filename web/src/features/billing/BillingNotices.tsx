import { NonPaymentBanner } from './NonPaymentBanner';
import { PayPromptDialog } from './PayPromptDialog';

/** What the signed-in frame shows for billing: the non-payment warning and the pay prompt. */
export const BillingNotices = () => (
  <>
    <NonPaymentBanner />
    <PayPromptDialog />
  </>
);
