import argon2 from 'argon2';

/** argon2id with the library's recommended parameters. */
export const hashPassword = (password: string): Promise<string> => argon2.hash(password, { type: argon2.argon2id });

export const verifyPassword = async (hash: string | null, password: string): Promise<boolean> => {
  if (!hash) return false;
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
};

let dummy: Promise<string> | undefined;
/** Spends the same time as a real check, so a missing account is not told apart by timing. */
export const burnPasswordCheck = async (password: string): Promise<void> => {
  dummy ??= hashPassword('timing-equaliser-0!');
  await verifyPassword(await dummy, password);
};
