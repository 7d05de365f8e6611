import ClearIcon from '@mui/icons-material/Clear';
import SearchIcon from '@mui/icons-material/Search';
import { Alert, IconButton, InputAdornment, TextField } from '@mui/material';
import { useEffect, useRef, useState } from 'react';
import { useListContext, useTranslate } from 'react-admin';
import { SEARCH_DEBOUNCE_MS, searchMessage, searchTextOf, toSearchFilter } from './userSearch';

/** The search box: sets the API's `q` filter, only when there is text. */
export const UserSearchBox = () => {
  const translate = useTranslate();
  const { filterValues, displayedFilters, setFilters } = useListContext();
  const applied = searchTextOf(filterValues);
  const [text, setText] = useState(applied);
  const latest = useRef({ filterValues, displayedFilters, applied });
  latest.current = { filterValues, displayedFilters, applied };
  // The page the box was typed on: a search still pending when a row was opened must not bring the list back.
  const listPath = useRef(window.location.pathname);

  // Follow outside changes of the filter (back button, "clear filters").
  useEffect(() => {
    setText((current) => (current.trim() === applied ? current : applied));
  }, [applied]);

  const apply = (value: string) => {
    const { filterValues: current, displayedFilters: shown, applied: now } = latest.current;
    if (value.trim() === now || window.location.pathname !== listPath.current) return;
    setFilters(toSearchFilter(value, current), shown, false);
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: the debounce restarts only when the text changes; apply reads the rest through a ref
  useEffect(() => {
    const timer = setTimeout(() => apply(text), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text]);

  return (
    <TextField
      value={text}
      onChange={(event) => setText(event.target.value)}
      onKeyDown={(event) => {
        if (event.key === 'Enter') apply(text);
      }}
      label={translate('resources.users.search.label')}
      placeholder={translate('resources.users.search.placeholder')}
      size="small"
      sx={{ minWidth: 320 }}
      slotProps={{
        htmlInput: { 'data-testid': 'users-search', 'aria-label': translate('resources.users.search.label') },
        input: {
          startAdornment: (
            <InputAdornment position="start">
              <SearchIcon fontSize="small" />
            </InputAdornment>
          ),
          endAdornment: text ? (
            <InputAdornment position="end">
              <IconButton
                size="small"
                aria-label={translate('ra.action.clear_input_value')}
                onClick={() => {
                  setText('');
                  apply('');
                }}
              >
                <ClearIcon fontSize="small" />
              </IconButton>
            </InputAdornment>
          ) : undefined,
        },
      }}
    />
  );
};

/** The info message for an empty search and the "user list no match" message. */
export const UserSearchMessage = () => {
  const translate = useTranslate();
  const { filterValues, total, isPending } = useListContext();
  const message = searchMessage({ filterValues, total, isPending });
  if (message.kind === 'info') {
    return (
      <Alert severity="info" sx={{ mx: 2, mb: 1 }} data-testid="users-search-info">
        {translate(message.key)}
      </Alert>
    );
  }
  if (message.kind === 'noMatch') {
    return (
      <Alert severity="warning" sx={{ mx: 2, mb: 1 }} data-testid="users-no-match">
        {translate(message.key, { search: message.search })}
      </Alert>
    );
  }
  return null;
};
