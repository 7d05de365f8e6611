import CheckIcon from '@mui/icons-material/Check';
import TranslateIcon from '@mui/icons-material/Translate';
import { Divider, ListItemIcon, ListItemText, MenuItem } from '@mui/material';
import { isConsoleLocale } from '../i18n/locales';
import { useChooseLocale } from '../i18n/staffLocale';
import { AppBar, LoadingIndicator, Logout, UserMenu, useLocaleState, useLocales, useTranslate, useUserMenu } from 'react-admin';

/** The languages in the user menu: the chosen one is checked, a click switches the whole console (and the activity sentences) and saves the choice with the account. */
const LanguageItems = () => {
  const locales = useLocales();
  const [locale] = useLocaleState();
  const chooseLocale = useChooseLocale();
  const userMenu = useUserMenu();
  const translate = useTranslate();
  return (
    <>
      <MenuItem disabled dense>
        <ListItemIcon>
          <TranslateIcon fontSize="small" />
        </ListItemIcon>
        <ListItemText>{translate('console.language')}</ListItemText>
      </MenuItem>
      {locales.map(({ locale: value, name }) => (
        <MenuItem
          key={value}
          selected={value === locale}
          lang={value}
          data-testid={`locale-${value}`}
          onClick={() => {
            if (isConsoleLocale(value)) chooseLocale(value);
            userMenu?.onClose();
          }}
        >
          <ListItemIcon>{value === locale ? <CheckIcon fontSize="small" /> : null}</ListItemIcon>
          <ListItemText>{name}</ListItemText>
        </MenuItem>
      ))}
      <Divider />
    </>
  );
};

const ConsoleUserMenu = () => (
  <UserMenu>
    <LanguageItems />
    <Logout />
  </UserMenu>
);

/** React-admin's bar with the language switch moved into the user menu. */
export const ConsoleAppBar = () => <AppBar userMenu={<ConsoleUserMenu />} toolbar={<LoadingIndicator />} />;
