import { adminCreateUserSchema } from '@axel/domain/accounts/accounts.validation';
import { Alert } from '@mui/material';
import { Create, PasswordInput, SelectInput, SimpleForm, TextInput, useNotify, usePermissions, useRedirect, useTranslate, type RaRecord } from 'react-admin';
import { creatableRoles } from '../../auth/access';
import { zodValidate } from '../../forms/zodValidate';
import { ROLE_CHOICES } from './userFields';

/** The API's own rules: email, password and member required, password strength, confirmation match. */
const validateCreateUser = zodValidate(adminCreateUserSchema);

export const UserCreate = () => {
  const { permissions, isPending } = usePermissions();
  const translate = useTranslate();
  const notify = useNotify();
  const redirect = useRedirect();
  const allowed = creatableRoles(permissions);
  // reached by its address, the form would only end in the server's refusal: say it up front
  if (!isPending && allowed.length === 0) {
    return (
      <Alert severity="info" sx={{ mt: 2 }} data-testid="user-create-refused">
        {translate('resources.users.refusals.create_users')}
      </Alert>
    );
  }
  return (
    <Create
      title="resources.users.create.title"
      mutationOptions={{
        onSuccess: (data: RaRecord) => {
          notify('resources.users.notifications.created', { type: 'success' });
          redirect('show', 'users', data.id);
        },
      }}
    >
      <SimpleForm validate={validateCreateUser} data-testid="user-create-form">
        <TextInput source="email" type="email" autoComplete="off" slotProps={{ htmlInput: { 'data-testid': 'user-create-email' } }} />
        <PasswordInput source="password" autoComplete="new-password" slotProps={{ htmlInput: { 'data-testid': 'user-create-password' } }} />
        <PasswordInput
          source="passwordConfirmation"
          autoComplete="new-password"
          slotProps={{ htmlInput: { 'data-testid': 'user-create-password-confirmation' } }}
        />
        <SelectInput source="role" choices={ROLE_CHOICES.filter((choice) => allowed.includes(choice.id))} data-testid="user-create-role" />
      </SimpleForm>
    </Create>
  );
};
