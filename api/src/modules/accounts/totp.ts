import { generateSecret, generateURI, verify } from 'otplib';
import QRCode from 'qrcode';

export const newTotpSecret = (): string => generateSecret();

export const totpEnrolment = async (secret: string, account: string) => {
  const otpauthUrl = generateURI({ issuer: 'AXEL Drive', label: account, secret });
  return { secret, otpauthUrl, qrDataUrl: await QRCode.toDataURL(otpauthUrl, { margin: 1, width: 220 }) };
};

/** One 30-second step of tolerance either side, for clocks that drift. */
export const verifyTotp = async (secret: string, token: string, now: Date): Promise<boolean> => {
  if (!/^\d{6}$/.test(token)) return false;
  const result = await verify({ secret, token, epoch: Math.floor(now.getTime() / 1000), epochTolerance: 30 });
  return result.valid;
};
