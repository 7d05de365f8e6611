import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompress } from '../../../scripts/precompress.mjs';
import { createLogger } from '../logger';
import { createServer } from './server';

const repo = path.resolve(__dirname, '../../..');
const fixture = mkdtempSync(path.join(os.tmpdir(), 'axel-static-'));
const webDist = path.join(fixture, 'web');
const consoleDist = path.join(fixture, 'console');

// what a vite build leaves: index.html naming hashed files under assets/, and the public folder
const script = `export const greet = () => ${JSON.stringify('AXEL Drive '.repeat(400))};\n`;
const writeDist = (dist: string, app: 'web' | 'console', base: string) => {
  mkdirSync(path.join(dist, 'assets'), { recursive: true });
  cpSync(path.join(repo, app, 'public'), dist, { recursive: true });
  writeFileSync(path.join(dist, 'assets', 'index-B4x9Qd2k.js'), script);
  writeFileSync(path.join(dist, 'assets', 'index-Cw1fT7aa.css'), 'body { margin: 0; }\n'.repeat(100));
  const html = readFileSync(path.join(repo, app, 'index.html'), 'utf8').replace(
    '<script type="module" src="/src/main.tsx"></script>',
    `<script type="module" src="${base}assets/index-B4x9Qd2k.js"></script>`,
  );
  writeFileSync(path.join(dist, 'index.html'), html.replaceAll('href="/favicon', `href="${base}favicon`));
  precompress(dist);
};

interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** Plain node:http, which (unlike fetch) leaves the body as the server encoded it. */
const get = (pathname: string, headers: Record<string, string> = {}) =>
  new Promise<RawResponse>((resolve, reject) => {
    const req = http.get(`${baseUrl}${pathname}`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });

let server: FastifyInstance;
let baseUrl = '';

beforeAll(async () => {
  writeDist(webDist, 'web', '/');
  writeDist(consoleDist, 'console', '/admin/');
  server = await createServer({ logger: createLogger('silent'), webDist, consoleDist });
  await server.ready();
  baseUrl = (await server.listen({ port: 0, host: '127.0.0.1' })).replace('localhost', '127.0.0.1');
});
afterAll(async () => {
  await server?.close();
  rmSync(fixture, { recursive: true, force: true });
});

describe('the web app and console files', () => {
  it('sends brotli or gzip as the browser accepts, bytes that decompress to the file', async () => {
    const file = '/assets/index-B4x9Qd2k.js';
    const br = await get(file, { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.body.length).toBeLessThan(script.length / 4);
    expect(brotliDecompressSync(br.body).toString('utf8')).toBe(script);

    const gz = await get(file, { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString('utf8')).toBe(script);

    const plain = await get(file, { 'accept-encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString('utf8')).toBe(script);

    const consoleScript = await get('/admin/assets/index-B4x9Qd2k.js', { 'accept-encoding': 'br' });
    expect(consoleScript.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(consoleScript.body).toString('utf8')).toBe(script);
  });

  it('lets browsers keep hashed assets for a year, and revalidate index.html every time', async () => {
    for (const file of ['/assets/index-B4x9Qd2k.js', '/assets/index-Cw1fT7aa.css', '/admin/assets/index-B4x9Qd2k.js']) {
      for (const encoding of ['br', 'identity']) {
        const res = await get(file, { 'accept-encoding': encoding });
        expect(res.headers['cache-control'], `${file} (${encoding})`).toBe('public, max-age=31536000, immutable');
      }
    }
    for (const page of ['/', '/settings', '/index.html', '/admin', '/admin/users']) {
      const res = await get(page, { 'accept-encoding': 'br' });
      expect(res.status, page).toBe(200);
      expect(res.headers['cache-control'], page).toBe('no-cache');
    }
  });

  it('answers 404 for a missing file instead of the app', async () => {
    for (const file of ['/assets/nope.js', '/admin/assets/nope.css', '/nope.png', '/admin/robots.txt', '/assets/index-B4x9Qd2k.js/x']) {
      const res = await get(file, { 'accept-encoding': 'br, gzip' });
      expect(res.status, file).toBe(404);
      expect(res.headers['content-type'], file).toMatch(/application\/json/);
      expect(JSON.parse(res.body.toString('utf8')), file).toMatchObject({ code: expect.any(String), message: expect.any(String), data: null });
    }
  });

  it('serves each app for its client-side routes', async () => {
    const web = await get('/settings', { 'accept-encoding': 'br' });
    expect(web.headers['content-type']).toMatch(/text\/html/);
    const webHtml = brotliDecompressSync(web.body).toString('utf8');
    expect(webHtml).toContain('src="/assets/index-B4x9Qd2k.js"');

    const mailedLink = await get('/email-confirmation/0190a3b4-7c1d-7e2f-8a9b-0c1d2e3f4a5b.Zx8_kQ2v-Lm4Np6Rs8Tu0Wy');
    expect(mailedLink.status).toBe(200);
    expect(mailedLink.body.toString('utf8')).toBe(webHtml);

    const admin = await get('/admin/users', { 'accept-encoding': 'identity' });
    expect(admin.status).toBe(200);
    expect(admin.body.toString('utf8')).toContain('src="/admin/assets/index-B4x9Qd2k.js"');
    expect(admin.body.toString('utf8')).not.toBe(webHtml);

    const api = await get('/api/nope');
    expect(api.status).toBe(404);
    expect(api.headers['content-type']).toMatch(/application\/json/);
  });

  it('serves the product icon, linked from both apps', async () => {
    const svg = await get('/favicon.svg', { 'accept-encoding': 'identity' });
    expect(svg.status).toBe(200);
    expect(svg.headers['content-type']).toMatch(/image\/svg\+xml/);
    expect(svg.body.toString('utf8')).toBe(readFileSync(path.join(repo, 'web/public/favicon.svg'), 'utf8'));

    const ico = await get('/favicon.ico', { 'accept-encoding': 'identity' });
    expect(ico.status).toBe(200);
    expect(ico.headers['content-type']).toMatch(/image\/(x-icon|vnd\.microsoft\.icon)/);
    expect([...ico.body.subarray(0, 4)]).toEqual([0, 0, 1, 0]);

    const adminSvg = await get('/admin/favicon.svg');
    expect(adminSvg.status).toBe(200);
    expect(adminSvg.headers['content-type']).toMatch(/image\/svg\+xml/);

    const page = (await get('/', { 'accept-encoding': 'identity' })).body.toString('utf8');
    expect(page).toMatch(/<link rel="icon" href="\/favicon.svg" type="image\/svg\+xml" \/>/);
    const adminPage = (await get('/admin', { 'accept-encoding': 'identity' })).body.toString('utf8');
    expect(adminPage).toMatch(/<link rel="icon" href="\/admin\/favicon.svg" type="image\/svg\+xml" \/>/);
  });
});
