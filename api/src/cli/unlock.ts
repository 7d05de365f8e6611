import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, normalize, resolve, sep } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { PassThrough, Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import { createInflateRaw } from 'node:zlib';
import { decrypt, decryptKey, readMessage, readPrivateKey, unarmor, type PrivateKey } from 'openpgp';

/*
 * The AXEL unlocker, offline: decrypts one's own end-to-end encrypted files (OpenPGP SEIPDv2
 * messages) from a file or a zip of them, streaming, with the armored private key and its
 * passphrase. It needs nothing of the product: docs/e2ee.md describes the container format.
 */

const usage = `usage: npm run unlock -- <file or archive> --key <armored private key file> [options]

Decrypts end-to-end encrypted files downloaded from AXEL Drive, without the product:
  <file>.pgp      one OpenPGP message (key packets, then the encrypted data)
  <archive>.zip   a download of several items: every entry named *.pgp is decrypted,
                  every other entry is copied as it is

options:
  --key <file>              the armored private key (Settings > Passphrase > export, or the
                            e2eePrivateKey of your user info)
  --passphrase-file <file>  read the passphrase from a file (else AXEL_PASSPHRASE, else asked)
  --packets <file>          the file's key packets (its pgpmessage), for a file downloaded alone
                            whose content has no key packets in front
  --out <path>              where to write: a folder for an archive (default: the archive's
                            name without .zip), a file for one message (default: its name
                            without .pgp, beside it)
  -h, --help                this text

Exit status: 0 when every file was decrypted, 1 when any failed, 64 on a usage error.`;

const fail = (message: string, code = 1): never => {
  console.error(message);
  process.exit(code);
};

/** The passphrase: from a file, the environment, or typed (never an argument: shells keep history). */
const passphraseOf = async (file: string | undefined): Promise<string> => {
  if (file) return (await readFile(file, 'utf8')).replace(/\r?\n$/, '');
  if (process.env.AXEL_PASSPHRASE) return process.env.AXEL_PASSPHRASE;
  const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
  try {
    return await rl.question('Passphrase: ');
  } finally {
    rl.close();
  }
};

const unlockKey = async (keyFile: string, passphrase: string): Promise<PrivateKey> => {
  const privateKey = await readPrivateKey({ armoredKey: await readFile(keyFile, 'utf8') });
  if (privateKey.isDecrypted()) return privateKey;
  try {
    return await decryptKey({ privateKey, passphrase });
  } catch {
    return fail('Wrong passphrase: the private key could not be unlocked.');
  }
};

/** The bytes of an armored (or binary) message of key packets. */
const packetBytes = async (file: string): Promise<Uint8Array> => {
  const text = await readFile(file);
  if (!text.subarray(0, 64).toString('latin1').includes('-----BEGIN PGP')) return new Uint8Array(text);
  const { data } = await unarmor(text.toString('utf8'));
  if (data instanceof Uint8Array) return data;
  const chunks: Uint8Array[] = [];
  for await (const c of Readable.fromWeb(data as never)) chunks.push(c as Uint8Array);
  return Buffer.concat(chunks);
};

/** Decrypts one OpenPGP message read from `input` into `outPath` (written beside it, renamed when whole). */
const decryptTo = async (input: Readable, outPath: string, key: PrivateKey): Promise<number> => {
  const partial = `${outPath}.partial`;
  await mkdir(dirname(outPath), { recursive: true });
  try {
    const message = await readMessage({ binaryMessage: Readable.toWeb(input) as ReadableStream<Uint8Array> });
    const { data } = await decrypt({ message, decryptionKeys: key, format: 'binary', config: { allowUnauthenticatedStream: false } });
    let written = 0;
    const counter = new PassThrough();
    counter.on('data', (c: Buffer) => {
      written += c.length;
    });
    await pipeline(Readable.fromWeb(data as never), counter, createWriteStream(partial));
    await rename(partial, outPath);
    return written;
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
};

const withPrefix = (prefix: Uint8Array | null, rest: Readable): Readable =>
  prefix
    ? Readable.from(
        (async function* () {
          yield Buffer.from(prefix);
          yield* rest;
        })(),
      )
    : rest;

// ---- the zip, read through its central directory (entries stream one by one from their offsets)

interface ZipEntry {
  readonly name: string;
  readonly method: number;
  readonly compressedSize: number;
  readonly localHeaderOffset: number;
}

const EOCD = 0x06054b50;
const EOCD64 = 0x06064b50;
const EOCD64_LOCATOR = 0x07064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const MAX32 = 0xffffffff;

const readAt = async (fd: Awaited<ReturnType<typeof open>>, position: number, length: number): Promise<Buffer> => {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await fd.read(buffer, 0, length, position);
  return buffer.subarray(0, bytesRead);
};

const zipEntries = async (path: string): Promise<ZipEntry[]> => {
  const fd = await open(path, 'r');
  try {
    const size = (await fd.stat()).size;
    const tailLength = Math.min(size, 22 + 0xffff);
    const tail = await readAt(fd, size - tailLength, tailLength);
    let at = -1;
    for (let i = tail.length - 22; i >= 0; i--)
      if (tail.readUInt32LE(i) === EOCD) {
        at = i;
        break;
      }
    if (at < 0) throw new Error('not a zip archive (no end of central directory)');
    let count = tail.readUInt16LE(at + 10);
    let dirSize = tail.readUInt32LE(at + 12);
    let dirOffset = tail.readUInt32LE(at + 16);
    if (at >= 20 && tail.readUInt32LE(at - 20) === EOCD64_LOCATOR) {
      const eocd64 = await readAt(fd, Number(tail.readBigUInt64LE(at - 20 + 8)), 56);
      if (eocd64.readUInt32LE(0) !== EOCD64) throw new Error('damaged zip64 end of central directory');
      count = Number(eocd64.readBigUInt64LE(32));
      dirSize = Number(eocd64.readBigUInt64LE(40));
      dirOffset = Number(eocd64.readBigUInt64LE(48));
    }
    const dir = await readAt(fd, dirOffset, dirSize);
    const entries: ZipEntry[] = [];
    let p = 0;
    for (let n = 0; n < count; n++) {
      if (dir.readUInt32LE(p) !== CENTRAL) throw new Error('damaged central directory');
      const method = dir.readUInt16LE(p + 10);
      let compressedSize = dir.readUInt32LE(p + 20);
      const uncompressed = dir.readUInt32LE(p + 24);
      const nameLength = dir.readUInt16LE(p + 28);
      const extraLength = dir.readUInt16LE(p + 30);
      const commentLength = dir.readUInt16LE(p + 32);
      let localHeaderOffset = dir.readUInt32LE(p + 42);
      const name = dir.subarray(p + 46, p + 46 + nameLength).toString('utf8');
      // zip64: the fields at their maximum are in the extra field 0x0001, in this order
      let e = p + 46 + nameLength;
      const extraEnd = e + extraLength;
      while (e + 4 <= extraEnd) {
        const id = dir.readUInt16LE(e);
        const length = dir.readUInt16LE(e + 2);
        if (id === 0x0001) {
          let q = e + 4;
          if (uncompressed === MAX32) q += 8;
          if (compressedSize === MAX32) {
            compressedSize = Number(dir.readBigUInt64LE(q));
            q += 8;
          }
          if (localHeaderOffset === MAX32) localHeaderOffset = Number(dir.readBigUInt64LE(q));
        }
        e += 4 + length;
      }
      entries.push({ name, method, compressedSize, localHeaderOffset });
      p = extraEnd + commentLength;
    }
    return entries;
  } finally {
    await fd.close();
  }
};

const entryStream = async (path: string, entry: ZipEntry): Promise<Readable> => {
  const fd = await open(path, 'r');
  let header: Buffer;
  try {
    header = await readAt(fd, entry.localHeaderOffset, 30);
  } finally {
    await fd.close();
  }
  if (header.readUInt32LE(0) !== LOCAL) throw new Error(`damaged entry ${entry.name}`);
  const start = entry.localHeaderOffset + 30 + header.readUInt16LE(26) + header.readUInt16LE(28);
  const raw = entry.compressedSize === 0 ? Readable.from([]) : createReadStream(path, { start, end: start + entry.compressedSize - 1 });
  if (entry.method === 0) return raw;
  if (entry.method === 8) return raw.pipe(createInflateRaw());
  throw new Error(`entry ${entry.name} uses compression method ${entry.method}, which the unlocker does not read`);
};

/** A path inside the output folder, never outside it. */
const inside = (root: string, name: string): string => {
  const clean = normalize(name).replace(/^([/\\])+/, '');
  if (isAbsolute(clean) || clean.split(sep).includes('..')) throw new Error(`entry ${name} would leave the output folder`);
  return join(root, clean);
};

const isZip = async (path: string): Promise<boolean> => {
  const fd = await open(path, 'r');
  try {
    const head = await readAt(fd, 0, 4);
    return head.length === 4 && (head.readUInt32LE(0) === LOCAL || head.readUInt32LE(0) === EOCD);
  } finally {
    await fd.close();
  }
};

const withoutPgp = (name: string) => name.replace(/\.(pgp|gpg|asc)$/i, '') || `${name}.out`;

const main = async () => {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      key: { type: 'string' },
      'passphrase-file': { type: 'string' },
      packets: { type: 'string' },
      out: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(usage);
    return;
  }
  const [input] = positionals;
  if (!input || !values.key || positionals.length > 1) fail(usage, 64);
  const key = await unlockKey(values.key!, await passphraseOf(values['passphrase-file']));
  let failed = 0;
  if (await isZip(input!)) {
    const root = resolve(values.out ?? basename(input!).replace(/\.zip$/i, ''));
    for (const entry of await zipEntries(input!)) {
      if (entry.name.endsWith('/')) {
        await mkdir(inside(root, entry.name), { recursive: true });
        continue;
      }
      try {
        const source = await entryStream(input!, entry);
        if (/\.pgp$/i.test(entry.name)) {
          const target = inside(root, withoutPgp(entry.name));
          const size = await decryptTo(source, target, key);
          console.log(`decrypted ${entry.name} -> ${target} (${size} bytes)`);
        } else {
          const target = inside(root, entry.name);
          await mkdir(dirname(target), { recursive: true });
          await pipeline(source, createWriteStream(target));
          console.log(`copied    ${entry.name} -> ${target} (not end-to-end encrypted)`);
        }
      } catch (error) {
        failed++;
        console.error(`failed    ${entry.name}: ${(error as Error).message}`);
      }
    }
  } else {
    const target = resolve(values.out ?? join(dirname(input!), withoutPgp(basename(input!))));
    try {
      const packets = values.packets ? await packetBytes(values.packets) : null;
      const size = await decryptTo(withPrefix(packets, createReadStream(input!)), target, key);
      console.log(`decrypted ${input} -> ${target} (${size} bytes)`);
    } catch (error) {
      failed++;
      console.error(`failed    ${input}: ${(error as Error).message}`);
    }
  }
  if (failed) process.exit(1);
};

await main().catch((error: unknown) => fail((error as Error).message));
