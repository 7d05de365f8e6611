import { generateSecret, generateURI, verify } from 'otplib';
import QRCode from 'qrcode';

export const newTotpSecret = (): string => generateSecret();

export const totpEnrolment = async (secret: string, account: string) => {
  const otpauthUrl = generateURI({ issuer: 'AXEL Drive', label: account, secret });
  return { secret, otpauthUrl, qrDataUrl: await QRCode.toDataURL(otpauthUrl, { margin: 1, width: 220 }) };
};

/**
 * The time step the code belongs to, or null when it is wrong. One 30-second step of tolerance
 * either side, for clocks that drift. The step goes to the decider, which accepts each step at
 * most once (a code must not work twice).
 */
export const verifyTotp = async (secret: string, token: string, now: Date): Promise<number | null> => {
  if (!/^\d{6}$/.test(token)) return null;
  const result = await verify({ secret, token, epoch: Math.floor(now.getTime() / 1000), epochTolerance: 30 });
  return result.valid && 'timeStep' in result && typeof result.timeStep === 'number' ? result.timeStep : null;
};
