// Brotli and gzip copies of a built app's text files, made once at build time so the server only
// picks the file the browser accepts (and never compresses on each request).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|map|txt|xml|ico|webmanifest|wasm)$/i;

/** Writes `<file>.br` and `<file>.gz` beside every compressible file of `dir` where they are smaller. */
export const precompress = (dir) => {
  const written = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      written.push(...precompress(file));
      continue;
    }
    if (!COMPRESSIBLE.test(entry.name)) continue;
    const source = readFileSync(file);
    const variants = {
      br: brotliCompressSync(source, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
          [constants.BROTLI_PARAM_SIZE_HINT]: source.length,
        },
      }),
      gz: gzipSync(source, { level: 9 }),
    };
    for (const [extension, compressed] of Object.entries(variants)) {
      if (compressed.length >= source.length) continue;
      writeFileSync(`${file}.${extension}`, compressed);
      written.push(`${file}.${extension}`);
    }
  }
  return written;
};
