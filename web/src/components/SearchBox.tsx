import SearchOutlined from '@mui/icons-material/SearchOutlined';
import Box from '@mui/material/Box';
import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';

interface SearchBoxProps {
  readonly value: string;
  readonly onChange: (text: string) => void;
  /** The trimmed text, on Enter. */
  readonly onSearch: (query: string) => void;
  /** The field was emptied: the list shows everything again at once. */
  readonly onClear: () => void;
  readonly label: string;
  readonly testId: string;
}

/** A list's search field: typed freely, searched on Enter, cleared at once. */
export function SearchBox({ value, onChange, onSearch, onClear, label, testId }: SearchBoxProps) {
  return (
    <Box
      component="form"
      role="search"
      onSubmit={(e) => {
        e.preventDefault();
        onSearch(value.trim());
      }}
    >
      <TextField
        size="small"
        margin="none"
        fullWidth={false}
        value={value}
        onChange={(e) => {
          onChange(e.target.value);
          if (!e.target.value) onClear();
        }}
        placeholder={label}
        slotProps={{
          htmlInput: { 'aria-label': label, 'data-testid': testId },
          input: {
            startAdornment: (
              <InputAdornment position="start">
                <SearchOutlined fontSize="small" />
              </InputAdornment>
            ),
          },
        }}
      />
    </Box>
  );
}
