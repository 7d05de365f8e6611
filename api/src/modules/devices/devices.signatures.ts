import { createHash, createPublicKey, verify } from 'node:crypto';
import { DeviceErrors, DomainError, type SignatureCheck } from '@axel/domain';
import type { FastifyRequest } from 'fastify';

/** How far a device's clock may be from ours before its signed requests are refused. */
export const DEVICE_CLOCK_SKEW_MS = 5 * 60_000;

/** An Ed25519 public key as devices send it: its SPKI DER in base64. */
export const isEd25519PublicKey = (publicKey: string): boolean => {
  try {
    return createPublicKey({ key: Buffer.from(publicKey, 'base64'), format: 'der', type: 'spki' }).asymmetricKeyType === 'ed25519';
  } catch {
    return false;
  }
};

/** The Ed25519 check the decider is given: a malformed key or signature is simply not a valid signature. */
export const ed25519Check: SignatureCheck = (publicKey, message, signature) => {
  try {
    const key = createPublicKey({ key: Buffer.from(publicKey, 'base64'), format: 'der', type: 'spki' });
    if (key.asymmetricKeyType !== 'ed25519') return false;
    return verify(null, Buffer.from(message, 'utf8'), key, Buffer.from(signature, 'base64'));
  } catch {
    return false;
  }
};

/**
 * What a device signs for each call of the device API: the method, the path, its clock and the
 * body as JSON. A signature proves the call comes from the device's key; the time bounds replays.
 */
export const deviceRequestMessage = (method: string, path: string, time: string, body: unknown): string =>
  `axel-cloudlocker-request\n${method.toUpperCase()}\n${path}\n${time}\n${createHash('sha256')
    .update(JSON.stringify(body ?? null))
    .digest('hex')}`;

export const DEVICE_HEADERS = { time: 'x-device-time', signature: 'x-device-signature' } as const;

/** The call's signature by `publicKey`, checked with its time within the allowed skew of `now`; else 401. */
export const assertSignedByDevice = (request: FastifyRequest, publicKey: string, now: Date): void => {
  const time = String(request.headers[DEVICE_HEADERS.time] ?? '');
  const signature = String(request.headers[DEVICE_HEADERS.signature] ?? '');
  const at = Date.parse(time);
  const path = request.url.split('?')[0]!;
  if (!time || !signature || Number.isNaN(at) || Math.abs(now.getTime() - at) > DEVICE_CLOCK_SKEW_MS) {
    throw new DomainError({ ...DeviceErrors.proofInvalid, status: 401 }, { reason: 'unsigned_or_stale' });
  }
  if (!ed25519Check(publicKey, deviceRequestMessage(request.method, path, time, request.body), signature)) {
    throw new DomainError({ ...DeviceErrors.proofInvalid, status: 401 }, { reason: 'bad_signature' });
  }
};
