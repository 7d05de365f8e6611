import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMachine } from '@xstate/react';
import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { fromPromise } from 'xstate';
import { ErrorAlert } from '../../components/ErrorAlert';
import { FormField } from '../../components/FormField';
import { localeTag } from '../../components/i18nHelpers';
import { useLoad } from '../../components/useLoad';
import { useSession } from '../../session/store';
import { AddressGate } from './AddressGate';
import { displayAxel, formatAxel, parseAxel, toUnits } from './amounts';
import { balanceStore, useBalance } from './balance.store';
import { sendMachine } from './send.machine';
import { useChainInfo } from './useChainInfo';
import { walletApi } from './wallet.api';
import type { Contact, SendRequest } from './wallet.types';
import { DEFAULT_MINIMUM_UNITS, type SendValues } from './wallet.validation';

const txIdOf = (result: unknown): string | null => {
  if (!result || typeof result !== 'object') return null;
  const r = result as Record<string, unknown>;
  for (const k of ['txid', 'id', 'transactionId']) if (typeof r[k] === 'string') return r[k] as string;
  return null;
};

const NO_CONTACTS: Contact[] = [];

const ContactPicker = ({ onPick }: { onPick: (contact: Contact) => void }) => {
  const { t } = useTranslation();
  const { user } = useSession();
  const contacts = useLoad(user ? () => walletApi.contacts(user.id) : null, [user]).data ?? NO_CONTACTS;
  return (
    <Autocomplete
      options={contacts}
      getOptionLabel={(c) => `${c.nickname} (${c.email})`}
      onChange={(_, c) => c && onPick(c)}
      noOptionsText={t('wallet.send.noContacts')}
      renderInput={(params) => (
        <TextField
          {...params}
          label={t('wallet.send.contact')}
          slotProps={{ ...params.slotProps, htmlInput: { ...params.slotProps.htmlInput, 'data-testid': 'send-contact' } }}
        />
      )}
    />
  );
};

export const SendSection = () => {
  const { t, i18n } = useTranslation();
  const tag = localeTag(i18n.language);
  const { balance, summary } = useBalance();
  const chain = useChainInfo();
  const minimumUnits = (chain?.minimumSend && parseAxel(chain.minimumSend)) || DEFAULT_MINIMUM_UNITS;
  // what a send may move now: nothing while a send (or tokens to the user) waits for a block
  const sendable = summary?.sendable ?? balance?.confirmed ?? null;
  const sendableUnits = sendable === null ? null : toUnits(sendable);
  const machine = useMemo(
    () =>
      sendMachine.provide({
        actors: { send: fromPromise<unknown, SendRequest>(({ input }) => walletApi.send(input)) },
        actions: {
          sent: () => {
            void balanceStore.refresh();
            balanceStore.afterAction();
          },
        },
      }),
    [],
  );
  const [state, send] = useMachine(machine, { input: { minimumUnits, sendableUnits } });
  const [values, setValues] = useState<SendValues>(state.context.values);
  useEffect(() => send({ type: 'SET_MINIMUM', units: minimumUnits }), [minimumUnits, send]);
  useEffect(() => send({ type: 'SET_SENDABLE', units: sendableUnits }), [sendableUnits, send]);
  // The machine clears the values for a new send; the form follows it.
  useEffect(() => setValues(state.context.values), [state.context.values]);

  const set = (field: keyof SendValues) => (value: string) => setValues((v) => ({ ...v, [field]: value }));
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    send({ type: 'SUBMIT', values });
  };
  const { fieldErrors, error } = state.context;
  const txid = txIdOf(state.context.result);

  return (
    <AddressGate>
      <Stack spacing={2} sx={{ maxWidth: 560 }}>
        <Typography variant="h5" component="h2">
          {t('wallet.nav.send')}
        </Typography>
        {sendable !== null && (
          <Typography color="text.secondary" data-testid="send-sendable">
            {t('wallet.send.available', { amount: displayAxel(sendable, tag) })}
          </Typography>
        )}

        {state.matches('edit') && (
          <Stack component="form" spacing={2} noValidate onSubmit={onSubmit} data-testid="send-form">
            <ContactPicker onPick={(c) => setValues((v) => ({ ...v, address: c.publicKey }))} />
            <FormField
              name="address"
              label={t('wallet.send.address')}
              value={values.address}
              onValue={set('address')}
              errorKey={fieldErrors.address}
              hint={t('wallet.send.addressHint')}
              testId="send-address"
              autoComplete="off"
              required
            />
            <FormField
              name="amount"
              label={t('wallet.send.amount')}
              value={values.amount}
              onValue={set('amount')}
              errorKey={fieldErrors.amount}
              hint={t('wallet.send.minimum', { amount: displayAxel(formatAxel(minimumUnits), tag) })}
              testId="send-amount"
              inputMode="decimal"
              autoComplete="off"
              required
            />
            <FormField
              name="note"
              label={t('wallet.send.note')}
              value={values.note}
              onValue={set('note')}
              errorKey={fieldErrors.note}
              testId="send-note"
              multiline
            />
            <Button type="submit" variant="contained" sx={{ alignSelf: 'flex-start' }} data-testid="send-submit">
              {t('wallet.send.continue')}
            </Button>
          </Stack>
        )}

        {state.matches('confirm') && (
          <Stack spacing={2} data-testid="send-confirm">
            <Alert severity="info">
              {t('wallet.send.confirmText', { amount: displayAxel(state.context.values.amount, tag), address: state.context.values.address })}
            </Alert>
            <Stack direction="row" spacing={1}>
              <Button variant="contained" onClick={() => send({ type: 'CONFIRM' })} data-testid="send-confirm-button">
                {t('wallet.send.confirm')}
              </Button>
              <Button onClick={() => send({ type: 'BACK' })} data-testid="send-back">
                {t('wallet.send.back')}
              </Button>
            </Stack>
          </Stack>
        )}

        {state.matches('sending') && (
          <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }} data-testid="send-sending">
            <CircularProgress size={24} aria-label={t('common.loading')} />
            <Typography>{t('wallet.send.sending')}</Typography>
          </Stack>
        )}

        {state.matches('sent') && (
          <Stack spacing={2} data-testid="send-sent">
            <Alert severity="success">{t('wallet.send.sent', { amount: displayAxel(state.context.values.amount, tag) })}</Alert>
            {txid && (
              <Typography sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }} data-testid="send-txid">
                {txid}
              </Typography>
            )}
            <Button onClick={() => send({ type: 'NEW' })} sx={{ alignSelf: 'flex-start' }} data-testid="send-new">
              {t('wallet.send.new')}
            </Button>
          </Stack>
        )}

        {state.matches('failed') && (
          <Stack spacing={2} data-testid="send-failed">
            <ErrorAlert error={error} testId="send-error" />
            <Stack direction="row" spacing={1}>
              <Button variant="contained" onClick={() => send({ type: 'RETRY' })} data-testid="send-retry">
                {t('wallet.send.retry')}
              </Button>
              <Button onClick={() => send({ type: 'EDIT' })} data-testid="send-edit">
                {t('wallet.send.edit')}
              </Button>
            </Stack>
          </Stack>
        )}
      </Stack>
    </AddressGate>
  );
};
