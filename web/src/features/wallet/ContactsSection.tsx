import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { toApiError, type NormalisedError } from '../../api/errors';
import { ErrorAlert } from '../../components/ErrorAlert';
import { FormField } from '../../components/FormField';
import { splitServerError } from '../../forms/serverErrors';
import type { FieldErrors } from '../../forms/zodErrors';
import { noticeStore } from '../../session/notices';
import { useSession } from '../../session/store';
import { useBalance } from './balance.store';
import { walletApi } from './wallet.api';
import type { Contact } from './wallet.types';
import { validateContact } from './wallet.validation';

export const CONTACT_FIELDS = ['nickname', 'firstName', 'middleName', 'lastName', 'email', 'email2', 'phone', 'phone2', 'publicKey'] as const;
type ContactField = (typeof CONTACT_FIELDS)[number];
type Values = Record<ContactField, string>;
const REQUIRED: ReadonlySet<ContactField> = new Set(['nickname', 'email', 'publicKey']);

/** The server's refusals that belong under one field. */
export const CONTACT_FIELD_CODES: Record<string, ContactField> = {
  CONTACT_OWN_EMAIL: 'email',
  CONTACT_DUPLICATE_EMAIL: 'email',
  CONTACT_OWN_KEY: 'publicKey',
  CONTACT_DUPLICATE_KEY: 'publicKey',
};

const valuesOf = (c: Contact | null): Values => Object.fromEntries(CONTACT_FIELDS.map((f) => [f, (c?.[f] as string | null | undefined) ?? ''])) as Values;

const ContactDialog = ({ contact, contacts, onClose, onSaved }: { contact: Contact | null; contacts: Contact[]; onClose: () => void; onSaved: () => void }) => {
  const { t } = useTranslation();
  const { user } = useSession();
  const { summary } = useBalance();
  const [values, setValues] = useState<Values>(() => valuesOf(contact));
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [error, setError] = useState<NormalisedError | null>(null);
  const [busy, setBusy] = useState(false);
  if (!user) return null;

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const checked = validateContact(values, {
      ownEmail: user.email,
      ownKeys: summary?.addresses.map((a) => a.address) ?? [],
      others: contacts.filter((c) => c.id !== contact?.id),
    });
    if (!checked.ok) {
      setFieldErrors(checked.fieldErrors);
      return;
    }
    setFieldErrors({});
    setError(null);
    setBusy(true);
    try {
      if (contact) await walletApi.editContact(user.id, contact.id, checked.value);
      else await walletApi.addContact(user.id, checked.value);
      noticeStore.push({ severity: 'success', key: contact ? 'wallet.contacts.saved' : 'wallet.contacts.added' });
      onSaved();
    } catch (err) {
      const split = splitServerError(err, CONTACT_FIELD_CODES);
      setFieldErrors(split.fieldErrors);
      setError(split.error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open onClose={onClose} maxWidth="sm" fullWidth data-testid="contact-dialog">
      <form noValidate onSubmit={(e) => void onSubmit(e)}>
        <DialogTitle>{t(contact ? 'wallet.contacts.edit' : 'wallet.contacts.add')}</DialogTitle>
        <DialogContent>
          <ErrorAlert error={error} testId="contact-error" />
          <Stack spacing={2} sx={{ mt: 1 }}>
            {CONTACT_FIELDS.map((f) => (
              <FormField
                key={f}
                name={f}
                label={t(`wallet.contacts.fields.${f}`)}
                value={values[f]}
                onValue={(v) => setValues((prev) => ({ ...prev, [f]: v }))}
                errorKey={fieldErrors[f]}
                testId={`contact-${f}`}
                required={REQUIRED.has(f)}
                type={f.startsWith('email') ? 'email' : f.startsWith('phone') ? 'tel' : 'text'}
              />
            ))}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={busy} data-testid="contact-save">
            {busy ? <CircularProgress size={20} aria-label={t('common.loading')} /> : t('wallet.contacts.save')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
};

export const ContactsSection = () => {
  const { t } = useTranslation();
  const { user } = useSession();
  const [contacts, setContacts] = useState<Contact[] | null>(null);
  const [error, setError] = useState<NormalisedError | null>(null);
  const [editing, setEditing] = useState<Contact | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Contact | null>(null);
  const userId = user?.id;

  const load = useCallback(async () => {
    if (!userId) return;
    try {
      setContacts(await walletApi.contacts(userId));
      setError(null);
    } catch (err) {
      setError(toApiError(err).toJSON());
    }
  }, [userId]);

  useEffect(() => {
    void load();
  }, [load]);

  const remove = async () => {
    if (!deleting || !userId) return;
    try {
      await walletApi.deleteContact(userId, deleting.id);
      noticeStore.push({ severity: 'success', key: 'wallet.contacts.deleted' });
      setDeleting(null);
      await load();
    } catch (err) {
      setDeleting(null);
      setError(toApiError(err).toJSON());
    }
  };

  return (
    <Stack spacing={2}>
      <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center' }}>
        <Typography variant="h5" component="h2">
          {t('wallet.nav.contacts')}
        </Typography>
        <Button variant="contained" onClick={() => setEditing('new')} data-testid="contacts-add">
          {t('wallet.contacts.add')}
        </Button>
      </Stack>
      <ErrorAlert error={error} testId="contacts-error" />
      {!contacts ? (
        !error && <CircularProgress aria-label={t('common.loading')} />
      ) : contacts.length === 0 ? (
        <Typography color="text.secondary" data-testid="contacts-empty">
          {t('wallet.contacts.empty')}
        </Typography>
      ) : (
        <Table size="small" data-testid="contacts-table">
          <TableHead>
            <TableRow>
              <TableCell>{t('wallet.contacts.fields.nickname')}</TableCell>
              <TableCell>{t('wallet.contacts.fields.email')}</TableCell>
              <TableCell>{t('wallet.contacts.fields.publicKey')}</TableCell>
              <TableCell align="right">{t('wallet.contacts.actions')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {contacts.map((c) => (
              <TableRow key={c.id} data-testid="contact-row">
                <TableCell>{c.nickname}</TableCell>
                <TableCell>{c.email}</TableCell>
                <TableCell sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>{c.publicKey}</TableCell>
                <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                  <IconButton aria-label={t('wallet.contacts.editNamed', { name: c.nickname })} onClick={() => setEditing(c)} data-testid="contact-edit">
                    <EditOutlined />
                  </IconButton>
                  <IconButton aria-label={t('wallet.contacts.deleteNamed', { name: c.nickname })} onClick={() => setDeleting(c)} data-testid="contact-delete">
                    <DeleteOutlined />
                  </IconButton>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      {editing !== null && contacts && (
        <ContactDialog
          contact={editing === 'new' ? null : editing}
          contacts={contacts}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            void load();
          }}
        />
      )}
      <Dialog open={deleting !== null} onClose={() => setDeleting(null)} data-testid="contact-delete-dialog">
        <DialogTitle>{t('wallet.contacts.deleteTitle')}</DialogTitle>
        <DialogContent>
          <DialogContentText>{t('wallet.contacts.deleteText', { name: deleting?.nickname ?? '' })}</DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setDeleting(null)}>{t('common.cancel')}</Button>
          <Button color="error" variant="contained" onClick={() => void remove()} data-testid="contact-delete-confirm">
            {t('wallet.contacts.delete')}
          </Button>
        </DialogActions>
      </Dialog>
    </Stack>
  );
};
