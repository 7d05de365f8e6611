/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Origin of the main host (https://app.example.com); set in production to enable custom-host sign-in. */
  readonly VITE_MAIN_ORIGIN?: string;
  /** Base URL of the public transaction explorer; the transaction id is appended. */
  readonly VITE_TX_EXPLORER_URL?: string;
}
