export declare const NONCE_LENGTH: 12;
export declare const TAG_LENGTH: 16;
export declare const openInto: (key: Uint8Array, sealed: Uint8Array, aad: Uint8Array, out: Uint8Array, plainLength: number) => number;
