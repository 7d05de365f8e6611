import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { finished } from 'node:stream/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZipFile } from 'yazl';
import { encryptFor, makeKey } from '../modules/e2ee/e2ee.testing';

/* `npm run unlock`: the offline unlocker on files and archives it did not make (docs/e2ee.md). */

const CLI = resolve(import.meta.dirname, 'unlock.ts');
const PASSPHRASE = 'a long enough passphrase';

const unlock = (args: string[], env: Record<string, string> = {}) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((done) => {
    execFile(process.execPath, ['--import', 'tsx', CLI, ...args], { env: { ...process.env, ...env }, timeout: 60_000 }, (error, stdout, stderr) =>
      done({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });

let dir: string;
let keyFile: string;
let passFile: string;
let publicKey: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'unlock-'));
  const key = await makeKey(PASSPHRASE);
  publicKey = key.publicKey;
  keyFile = join(dir, 'key.asc');
  passFile = join(dir, 'passphrase');
  await writeFile(keyFile, key.privateKey);
  await writeFile(passFile, `${PASSPHRASE}\n`);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('npm run unlock', () => {
  it('says how to use it with --help, and refuses a call without a key', async () => {
    const help = await unlock(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/usage: npm run unlock -- <file or archive> --key <armored private key file>/);
    const bare = await unlock([join(dir, 'nothing.pgp')]);
    expect(bare.code).toBe(64);
    expect(bare.stderr).toMatch(/usage:/);
  });

  it('decrypts an archive of two end-to-end files (one stored, one deflated, in a folder) and copies its plain entry', async () => {
    const first = randomBytes(1024 * 1024 + 77);
    const second = Buffer.from('second file, in a folder');
    const a = await encryptFor([publicKey], first);
    const b = await encryptFor([publicKey], second);
    const archive = join(dir, 'download.zip');
    const zip = new ZipFile();
    zip.addBuffer(Buffer.from(a.whole), 'photo.jpg.pgp', { compress: false });
    zip.addBuffer(Buffer.from(b.whole), 'Docs/note.txt.pgp', { compress: true });
    zip.addBuffer(Buffer.from('plain text'), 'readme.txt');
    zip.end();
    await finished(zip.outputStream.pipe(createWriteStream(archive)));

    const out = join(dir, 'out');
    const run = await unlock([archive, '--key', keyFile, '--passphrase-file', passFile, '--out', out]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/decrypted photo\.jpg\.pgp/);
    expect((await readFile(join(out, 'photo.jpg'))).equals(first)).toBe(true);
    expect((await readFile(join(out, 'Docs', 'note.txt'))).equals(second)).toBe(true);
    expect(await readFile(join(out, 'readme.txt'), 'utf8')).toBe('plain text');
  });

  it('decrypts a file downloaded alone with its key packets given apart, the passphrase from the environment', async () => {
    const plaintext = Buffer.from('alone');
    const file = await encryptFor([publicKey], plaintext);
    await writeFile(join(dir, 'alone.bin'), file.content);
    await writeFile(join(dir, 'alone.packets.asc'), file.pgpmessage);
    const target = join(dir, 'alone.txt');
    const run = await unlock([join(dir, 'alone.bin'), '--key', keyFile, '--packets', join(dir, 'alone.packets.asc'), '--out', target], {
      AXEL_PASSPHRASE: PASSPHRASE,
    });
    expect(run.code, run.stderr).toBe(0);
    expect((await readFile(target)).equals(plaintext)).toBe(true);
  });

  it('a wrong passphrase, a message for another key and a damaged message fail with status 1 and leave no output', async () => {
    const file = await encryptFor([publicKey], Buffer.from('kept'));
    await writeFile(join(dir, 'kept.txt.pgp'), file.whole);
    await writeFile(join(dir, 'wrong'), 'not the passphrase');
    const wrong = await unlock([join(dir, 'kept.txt.pgp'), '--key', keyFile, '--passphrase-file', join(dir, 'wrong')]);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/Wrong passphrase/);

    const other = await makeKey('another passphrase!');
    const foreign = await encryptFor([other.publicKey], Buffer.from('not yours'));
    await writeFile(join(dir, 'foreign.txt.pgp'), foreign.whole);
    const notYours = await unlock([join(dir, 'foreign.txt.pgp'), '--key', keyFile, '--passphrase-file', passFile]);
    expect(notYours.code).toBe(1);

    const damaged = Buffer.from(file.whole);
    damaged[damaged.length - 20]! ^= 0xff;
    await writeFile(join(dir, 'damaged.txt.pgp'), damaged);
    const broken = await unlock([join(dir, 'damaged.txt.pgp'), '--key', keyFile, '--passphrase-file', passFile]);
    expect(broken.code).toBe(1);
    await expect(readFile(join(dir, 'damaged.txt'))).rejects.toThrow();
    await expect(readFile(join(dir, 'damaged.txt.partial'))).rejects.toThrow();
  });
});
