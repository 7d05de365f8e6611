import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { CommonErrors } from '@axel/domain';

export interface StaticUiOptions {
  /** Built web app (served at /) and console (served at /admin/); each only when built. */
  readonly webDist?: string;
  readonly consoleDist?: string;
}

/** Vite names everything it emits under assets/ by content hash: a changed file is a new URL. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/*
 * Anything else (index.html above all, which names the current hashed files) is revalidated on
 * every use, so a release reaches every open browser at its next navigation.
 */
const REVALIDATE = 'no-cache';

const cacheHeaders = (reply: FastifyReply, file: string) => {
  reply.header('cache-control', path.basename(path.dirname(file)) === 'assets' ? IMMUTABLE : REVALIDATE);
};

/*
 * A request for a file that does not exist is answered 404, not with the app's HTML: a stale
 * script URL after a release, or a browser's /favicon.ico probe, must not get a 200 text/html page.
 * Client routes have no file extension (a mailed token's dot is followed by far more than one).
 */
const STATIC_FILE = /\.(?:js|mjs|cjs|css|map|json|ico|png|jpe?g|gif|svg|webp|avif|woff2?|ttf|otf|eot|txt|xml|webmanifest|wasm|html?|br|gz)$/i;
const looksLikeFile = (pathname: string) => /^\/(?:admin\/)?assets\//.test(pathname) || STATIC_FILE.test(pathname);

const built = (dist: string | undefined): dist is string => !!dist && existsSync(path.join(dist, 'index.html'));

/**
 * The web app at / and the console at /admin/: precompressed copies (brotli, gzip, made by
 * scripts/build-ui.mjs) chosen by Accept-Encoding, long caching for hashed assets, 404 for missing
 * files, and each app's index.html for its client-side routes. Also the 404 answer for everything
 * else that no route matched.
 */
export const registerStaticUi = async (app: FastifyInstance, options: StaticUiOptions) => {
  const common = { wildcard: false, index: false, preCompressed: true, cacheControl: false, setHeaders: cacheHeaders } as const;
  const web = built(options.webDist) ? path.resolve(options.webDist) : undefined;
  const admin = built(options.consoleDist) ? path.resolve(options.consoleDist) : undefined;
  if (web) await app.register(fastifyStatic, { ...common, root: web, prefix: '/' });
  if (admin) {
    await app.register(fastifyStatic, { ...common, root: admin, prefix: '/admin/', decorateReply: !web });
  }

  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?')[0]!;
    if (request.method === 'GET' && !pathname.startsWith('/api/') && !looksLikeFile(pathname)) {
      const isConsole = pathname === '/admin' || pathname.startsWith('/admin/');
      const dist = isConsole ? admin : web;
      if (dist) return reply.sendFile('index.html', dist);
    }
    return reply.status(404).send({ code: CommonErrors.notFound.code, message: `No route ${request.method} ${pathname}`, data: null });
  });
};
