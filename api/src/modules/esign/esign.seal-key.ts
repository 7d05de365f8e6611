import { createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes, sign as cryptoSign, type KeyObject } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { DigestAlgorithm, Signer } from '@libpdf/core';

/*
 * The product's document-sealing key: an RSA key with a self-issued X.509 certificate ("AXEL Drive
 * e-sign seal"), kept in the data directory beside the server key. Every completed package is
 * signed with it (PAdES), so a sealed PDF says by itself whether a byte changed since.
 */

const der = {
  tlv(tag: number, content: Buffer): Buffer {
    const n = content.length;
    const length =
      n < 0x80
        ? Buffer.from([n])
        : (() => {
            const bytes: number[] = [];
            for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff);
            return Buffer.from([0x80 | bytes.length, ...bytes]);
          })();
    return Buffer.concat([Buffer.from([tag]), length, content]);
  },
  seq: (...parts: Buffer[]) => der.tlv(0x30, Buffer.concat(parts)),
  set: (...parts: Buffer[]) => der.tlv(0x31, Buffer.concat(parts)),
  int(value: Buffer): Buffer {
    const v = value[0]! & 0x80 ? Buffer.concat([Buffer.from([0]), value]) : value;
    return der.tlv(0x02, v);
  },
  oid(dotted: string): Buffer {
    const [a, b, ...rest] = dotted.split('.').map(Number);
    const bytes = [a! * 40 + b!];
    for (const n of rest) {
      const chunk: number[] = [n & 0x7f];
      for (let v = Math.floor(n / 128); v > 0; v = Math.floor(v / 128)) chunk.unshift((v & 0x7f) | 0x80);
      bytes.push(...chunk);
    }
    return der.tlv(0x06, Buffer.from(bytes));
  },
  utf8: (text: string) => der.tlv(0x0c, Buffer.from(text, 'utf8')),
  time(date: Date): Buffer {
    const iso = date.toISOString().replace(/[-:T]/g, '').slice(0, 14);
    return date.getUTCFullYear() < 2050 ? der.tlv(0x17, Buffer.from(`${iso.slice(2)}Z`)) : der.tlv(0x18, Buffer.from(`${iso}Z`));
  },
  bits: (content: Buffer, unused = 0) => der.tlv(0x03, Buffer.concat([Buffer.from([unused]), content])),
  nul: () => Buffer.from([0x05, 0x00]),
  explicit: (n: number, inner: Buffer) => der.tlv(0xa0 | n, inner),
  octets: (content: Buffer) => der.tlv(0x04, content),
  bool: (value: boolean) => Buffer.from([0x01, 0x01, value ? 0xff : 0x00]),
};

const SHA256_WITH_RSA = '1.2.840.113549.1.1.11';
const SUBJECT = 'AXEL Drive e-sign seal';

const selfIssuedCertificate = (privateKey: KeyObject, publicKey: KeyObject, now: Date): Buffer => {
  const name = der.seq(der.set(der.seq(der.oid('2.5.4.3'), der.utf8(SUBJECT))), der.set(der.seq(der.oid('2.5.4.10'), der.utf8('AXEL Drive'))));
  const algorithm = der.seq(der.oid(SHA256_WITH_RSA), der.nul());
  const notAfter = new Date(now.getTime() + 20 * 365 * 86_400_000);
  // key usage: digitalSignature and nonRepudiation (bits 0 and 1), critical
  const keyUsage = der.seq(der.oid('2.5.29.15'), der.bool(true), der.octets(der.bits(Buffer.from([0xc0]), 6)));
  const tbs = der.seq(
    der.explicit(0, der.int(Buffer.from([2]))),
    der.int(randomBytes(16)),
    algorithm,
    name,
    der.seq(der.time(new Date(now.getTime() - 86_400_000)), der.time(notAfter)),
    name,
    publicKey.export({ type: 'spki', format: 'der' }),
    der.explicit(3, der.seq(keyUsage)),
  );
  return der.seq(tbs, algorithm, der.bits(cryptoSign('sha256', tbs, privateKey)));
};

export interface SealKey {
  readonly privateKey: KeyObject;
  /** DER-encoded X.509 certificate. */
  readonly certificate: Buffer;
}

const PEM_CERT = /-----BEGIN CERTIFICATE-----([\s\S]+?)-----END CERTIFICATE-----/;

/** The sealing key of this installation: generated on first use, then read from `<dataDir>/esign-seal.pem`. */
export const loadSealKey = (dataDir: string, now: Date = new Date()): SealKey => {
  const file = path.join(dataDir, 'esign-seal.pem');
  if (existsSync(file)) {
    const pem = readFileSync(file, 'utf8');
    const cert = PEM_CERT.exec(pem);
    if (!cert) throw new Error(`${file} holds no certificate`);
    return { privateKey: createPrivateKey(pem), certificate: Buffer.from(cert[1]!.replace(/\s+/g, ''), 'base64') };
  }
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const certificate = selfIssuedCertificate(privateKey, createPublicKey(privateKey), now);
  const certPem = `-----BEGIN CERTIFICATE-----\n${certificate.toString('base64').replace(/(.{64})/g, '$1\n')}\n-----END CERTIFICATE-----\n`;
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, `${privateKey.export({ type: 'pkcs8', format: 'pem' }) as string}${certPem}`, { mode: 0o600 });
  return { privateKey, certificate };
};

const NODE_DIGEST: Record<DigestAlgorithm, string> = { 'SHA-256': 'sha256', 'SHA-384': 'sha384', 'SHA-512': 'sha512' };

/** A new signer object per signature (the library keeps state in one). */
export const sealSigner = (key: SealKey): Signer => ({
  certificate: new Uint8Array(key.certificate),
  keyType: 'RSA',
  signatureAlgorithm: 'RSASSA-PKCS1-v1_5',
  sign: async (data: Uint8Array, algorithm: DigestAlgorithm) => new Uint8Array(cryptoSign(NODE_DIGEST[algorithm], data, key.privateKey)),
});
