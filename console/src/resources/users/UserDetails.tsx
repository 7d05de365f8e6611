import { Divider, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { BooleanField, SimpleShowLayout, TextField, useTranslate } from 'react-admin';
import { LocaleDateField } from '../../i18n/dates';
import { DeletedByField, PaymentFrequencyField, RoleField, StatusField, StatusIdField, StoragesField, ValueField } from './userFields';
import { NONE } from './userValues';

/** Three columns of labelled values on wide screens, one on phones. */
const grid = {
  p: 0,
  '& .RaSimpleShowLayout-stack': { display: 'grid', gridTemplateColumns: { xs: '1fr', md: 'repeat(3, minmax(0, 1fr))' }, columnGap: 3, rowGap: 1.5 },
  '& .RaSimpleShowLayout-stack > *': { m: '0 !important', minWidth: 0, overflowWrap: 'anywhere' },
} as const;

/** Rendered as a whole inside a show tab: `label={false}` keeps react-admin from labelling the block itself. */
type Block = { readonly label?: false };

const Section = ({ title, children }: { title: string; children: ReactNode }) => {
  const translate = useTranslate();
  return (
    <>
      <Typography variant="subtitle1" component="h2" sx={{ mt: 1 }}>
        {translate(title)}
      </Typography>
      <SimpleShowLayout sx={grid}>{children}</SimpleShowLayout>
      <Divider sx={{ my: 1 }} />
    </>
  );
};

const Text = ({ source }: { source: string }) => <TextField source={source} emptyText={NONE} />;
const When = ({ source }: { source: string }) => <LocaleDateField source={source} showTime emptyText={NONE} />;
const YesNo = ({ source }: { source: string }) => <BooleanField source={source} looseValue />;

/** Every admin-view field of a user the API gives, in sections. */
export const UserAccountDetails = (_: Block) => (
  <>
    <Section title="console.common.sections.account">
      <Text source="id" />
      <RoleField source="role" />
      <StatusField source="status" label="resources.users.fields.status" />
      <StatusIdField source="statusId" />
      <Text source="username" />
      <Text source="email" />
      <Text source="loginEmail" />
      <YesNo source="emailVerified" />
      <Text source="registrationApp" />
      <YesNo source="createdByStaff" />
      <ValueField source="authMethods" />
      <Text source="registrationUserAgent" />
      <Text source="locale" />
    </Section>
    <Section title="console.common.sections.security">
      <When source="firstLoginAt" />
      <When source="lastLoginAt" />
      <YesNo source="blocked" />
      <When source="blockedUntil" />
      <When source="lockedUntil" />
      <Text source="suspensionReason" />
      <YesNo source="twoFactorEnabled" />
      <Text source="twoFactorMethod" />
      <Text source="sessionTimeout" />
      <YesNo source="passphraseSet" />
      <Text source="passphraseHint" />
      <YesNo source="encryptionDefault" />
      <Text source="defaultIpfsGateway" />
    </Section>
    <Section title="console.common.sections.dates">
      <When source="registeredAt" />
      <When source="createdAt" />
      <When source="modifiedAt" />
      <When source="statusUpdatedAt" />
      <When source="deletedAt" />
      <DeletedByField source="deletedBy" />
    </Section>
  </>
);

export const UserProfileDetails = (_: Block) => (
  <>
    <Section title="console.common.sections.profile">
      <Text source="name" />
      <Text source="firstName" />
      <Text source="lastName" />
      <Text source="company" />
      <Text source="vatNumber" />
      <Text source="website" />
      <Text source="twitter" />
      <Text source="telegram" />
      <Text source="discord" />
    </Section>
    <Section title="console.common.sections.contact">
      <Text source="contactEmail" />
      <Text source="phones.home" />
      <Text source="phones.mobile" />
      <Text source="phones.work" />
      <Text source="phones.business" />
      <Text source="addresses.line1" />
      <Text source="addresses.line2" />
      <Text source="addresses.city" />
      <Text source="addresses.state" />
      <Text source="addresses.country" />
      <Text source="addresses.zip" />
    </Section>
  </>
);

export const UserPlanDetails = (_: Block) => (
  <Section title="console.common.sections.plan">
    <Text source="plan" />
    <PaymentFrequencyField source="paymentFrequency" />
    <StoragesField source="storages" />
    <ValueField source="signupBonus" />
    <ValueField source="partners" />
  </Section>
);
