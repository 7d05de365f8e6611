import { ApiError } from '../../api/errors';
import type { CryptoOps, CryptoReply, CryptoRequest } from './crypto.core';

/**
 * The one facade of end-to-end key operations: each call is a message to the crypto worker and its
 * answer (an ApiError with the operation's code when it fails, e.g. INCORRECT_CURRENT_PASSPHRASE).
 */
let worker: Worker | null = null;
let sequence = 0;
const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();

const cryptoWorker = (): Worker => {
  if (worker) return worker;
  worker = new Worker(new URL('./crypto.worker.ts', import.meta.url), { type: 'module', name: 'e2ee-crypto' });
  worker.onmessage = (event: MessageEvent<CryptoReply>) => {
    const reply = event.data;
    const waiting = pending.get(reply.id);
    if (!waiting) return;
    pending.delete(reply.id);
    if (reply.ok) waiting.resolve(reply.result);
    else waiting.reject(new ApiError(reply.code, reply.message));
  };
  worker.onerror = (event) => {
    for (const waiting of pending.values()) waiting.reject(new ApiError('CRYPTO_FAILED', event.message || 'The crypto worker stopped'));
    pending.clear();
    worker?.terminate();
    worker = null;
  };
  return worker;
};

const call =
  <K extends keyof CryptoOps>(op: K) =>
  (...args: Parameters<CryptoOps[K]>): ReturnType<CryptoOps[K]> =>
    new Promise((resolve, reject) => {
      const id = ++sequence;
      pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      // streams cannot be copied: they move to the worker
      const transfer = args.filter((a): a is ReadableStream => a instanceof ReadableStream);
      cryptoWorker().postMessage({ id, op, args } as CryptoRequest, transfer);
    }) as ReturnType<CryptoOps[K]>;

export const e2eeCrypto = {
  generate: call('generate'),
  changePassphrase: call('changePassphrase'),
  encryptFile: call('encryptFile'),
  decryptFile: call('decryptFile'),
  /** Unlocks the private key once in the worker (WRONG_PASSPHRASE when it does not open). */
  unlockSessionKey: call('unlockSessionKey'),
  lockSessionKey: call('lockSessionKey'),
  /** A whole message in, its plaintext out, both streamed through the worker with the unlocked key. */
  decryptMessageStream: call('decryptMessageStream'),
};
