import { type CryptoReply, type CryptoRequest, cryptoOps } from './crypto.core';

/*
 * The crypto worker: every key operation runs here, off the page's thread; passphrases and unlocked
 * keys stay in this scope. The app is typed with the DOM library; of the worker's scope only these
 * two members are used.
 */
const scope = self as unknown as {
  postMessage(message: CryptoReply, transfer?: Transferable[]): void;
  onmessage: ((event: MessageEvent<CryptoRequest>) => void) | null;
};

scope.onmessage = (event: MessageEvent<CryptoRequest>) => {
  const { id, op, args } = event.data;
  (cryptoOps[op] as (...a: unknown[]) => Promise<unknown>)(...args)
    .then((result) => scope.postMessage({ id, ok: true, result }, result instanceof ReadableStream ? [result] : []))
    .catch((error: unknown) =>
      scope.postMessage({
        id,
        ok: false,
        code: (error as { code?: string }).code ?? 'CRYPTO_FAILED',
        message: error instanceof Error ? error.message : String(error),
      }),
    );
};
