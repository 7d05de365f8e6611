import ContentCopyOutlined from '@mui/icons-material/ContentCopyOutlined';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import TextField, { type TextFieldProps } from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import { useState } from 'react';

interface CopyableLinkProps {
  readonly url: string;
  readonly testId: string;
  /** The field's label, the copy button's name, and what the button says once copied. */
  readonly labels: { readonly link: string; readonly copy: string; readonly copied: string };
  readonly fullWidth?: boolean;
  readonly size?: TextFieldProps['size'];
}

/** A read-only link with a copy button. */
export const CopyableLink = ({ url, testId, labels, fullWidth, size }: CopyableLinkProps) => {
  const [copied, setCopied] = useState(false);
  return (
    <TextField
      label={labels.link}
      value={url}
      fullWidth={fullWidth}
      size={size}
      slotProps={{
        htmlInput: { readOnly: true, 'data-testid': testId },
        input: {
          endAdornment: (
            <InputAdornment position="end">
              <Tooltip title={copied ? labels.copied : labels.copy}>
                <IconButton
                  aria-label={labels.copy}
                  data-testid={`${testId}-copy`}
                  onClick={() => {
                    void navigator.clipboard?.writeText(url).then(
                      () => setCopied(true),
                      () => setCopied(false),
                    );
                  }}
                >
                  <ContentCopyOutlined fontSize="small" />
                </IconButton>
              </Tooltip>
            </InputAdornment>
          ),
        },
      }}
    />
  );
};
