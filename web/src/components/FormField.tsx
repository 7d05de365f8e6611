import TextField, { type TextFieldProps } from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import { translateFieldError } from './i18nHelpers';

type Props = Omit<TextFieldProps, 'error' | 'helperText' | 'name' | 'label' | 'onChange' | 'value'> & {
  name: string;
  label: string;
  value: string;
  onValue: (value: string) => void;
  /** Message key of this field's error (validation.* or errors.*). */
  errorKey?: string;
  hint?: string;
  testId?: string;
};

/** A labelled text field showing its translated validation message. */
export const FormField = ({ name, label, value, onValue, errorKey, hint, testId, slotProps, ...rest }: Props) => {
  const { t } = useTranslation();
  const message = translateFieldError(t, errorKey);
  return (
    <TextField
      {...rest}
      id={rest.id ?? `field-${name}`}
      name={name}
      label={label}
      value={value}
      onChange={(e) => onValue(e.target.value)}
      error={Boolean(message)}
      helperText={message ?? hint}
      slotProps={{
        ...slotProps,
        htmlInput: { 'data-testid': testId ?? `field-${name}`, ...(slotProps?.htmlInput as object | undefined) },
      }}
    />
  );
};
