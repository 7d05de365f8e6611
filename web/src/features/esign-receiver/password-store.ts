/**
 * The package password a signer typed, kept for this tab only (session storage), so a reload does
 * not ask again; never in local storage, where it would outlive the visit.
 */
const keyOf = (linkId: string) => `esign-password:${linkId}`;

export const rememberedPassword = (linkId: string): string | null => {
  try {
    return sessionStorage.getItem(keyOf(linkId));
  } catch {
    return null;
  }
};

export const rememberPassword = (linkId: string, password: string) => {
  try {
    sessionStorage.setItem(keyOf(linkId), password);
  } catch {
    // without storage the password is asked again after a reload
  }
};

export const forgetPassword = (linkId: string) => {
  try {
    sessionStorage.removeItem(keyOf(linkId));
  } catch {
    // nothing kept
  }
};
