import TextField, { type TextFieldProps } from '@mui/material/TextField';
import { useId } from 'react';
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

/** React's generated ids, reduced to characters that are safe in CSS selectors too. */
export const readableId = (prefix: string, generated: string) => `${prefix}-${generated.replace(/[^A-Za-z0-9_-]/g, '')}`;

/**
 * A labelled text field showing its translated validation message. Its id is unique on the page
 * even when two forms share a field name (two password fields in settings), so each label names
 * and focuses its own input.
 */
export const FormField = ({ name, label, value, onValue, errorKey, hint, testId, slotProps, ...rest }: Props) => {
  const { t } = useTranslation();
  const generatedId = readableId(`field-${name}`, useId());
  const message = translateFieldError(t, errorKey);
  return (
    <TextField
      {...rest}
      id={rest.id ?? generatedId}
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
