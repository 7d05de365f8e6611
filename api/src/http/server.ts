import { randomUUID } from 'node:crypto';
import fastifyCookie from '@fastify/cookie';
import fastifyHelmet from '@fastify/helmet';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Logger } from '../logger';
import { answerClientError, answerFrameworkError, registerErrorHandling } from './errors';
import { registerRateLimits } from './rate-limits';
import { registerInputHygiene } from './input-hygiene';
import { registerStaticUi } from './static';

export interface ServerOptions {
  readonly logger: Logger;
  readonly trustProxy?: boolean;
  /** PUBLIC_URL: when it is https, the site is https even where a proxy does not say so. */
  readonly publicUrl?: string;
  /** Built web app and console; served when present. */
  readonly webDist?: string;
  readonly consoleDist?: string;
  readonly version?: string;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A provider's webhook, verified by its own signature: no CSRF header is asked of it. */
    signedWebhook?: boolean;
  }
}

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** JSON routes take small bodies; a route that needs more (the avatar) sets its own limit. */
export const JSON_BODY_LIMIT = 64 * 1024;

/** The path of a request target, also in absolute form (`PUT http://host/api/...`), decoded. */
export const targetPath = (url: string): string => {
  let path: string;
  try {
    path = new URL(url, 'http://target.invalid').pathname;
  } catch {
    path = url.split('?')[0]!;
  }
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
};

export const createServer = async (options: ServerOptions) => {
  const app = Fastify({
    loggerInstance: options.logger,
    trustProxy: options.trustProxy ?? false,
    bodyLimit: JSON_BODY_LIMIT,
    // a bad escape (`%ff`), an over-long path parameter: answered in the product's error shape
    frameworkErrors: answerFrameworkError,
    // bytes Node cannot parse as HTTP (malformed request line, oversized headers)
    clientErrorHandler: answerClientError,
    // every request carries a correlation id: the client's when it sends one, else a new one
    genReqId: (req) => {
      const given = req.headers['x-correlation-id'];
      return typeof given === 'string' && /^[\w-]{8,64}$/.test(given) ? given : randomUUID();
    },
  }).withTypeProvider<ZodTypeProvider>();

  // every route, for tests that must cover all of them (e.g. authorisation of /api/admin/)
  const routeList: { method: string; url: string; schema?: unknown }[] = [];
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) routeList.push({ method, url: route.url, schema: route.schema });
  });
  app.decorate('routeList', routeList);

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app as unknown as FastifyInstance);
  registerInputHygiene(app as unknown as FastifyInstance);

  const httpsSite = options.publicUrl?.startsWith('https://') ?? false;
  app.addHook('onSend', async (request, reply, payload) => {
    reply.header('x-correlation-id', request.id);
    // API answers depend on who asks: no shared or browser cache keeps them (a route may be stricter)
    if (targetPath(request.url).startsWith('/api/') && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    // HSTS means something only over https: behind a trusted proxy its forwarded protocol says so
    const https = request.protocol === 'https' || (!options.trustProxy && httpsSite);
    if (https) reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
    return payload;
  });

  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        styleSrc: ["'self'", "'unsafe-inline'"],
        // The browser hashes files with WebAssembly (Secure Fetch uploads and certificate checks): compiling it needs wasm-unsafe-eval, never plain eval.
        scriptSrc: ["'self'", "'wasm-unsafe-eval'"],
        connectSrc: ["'self'"],
        fontSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
    strictTransportSecurity: false,
  });
  await app.register(fastifyCookie);
  // Routes declare their caps per client address and per account (see rate-limits.ts).
  registerRateLimits(app as unknown as FastifyInstance);

  // Cross-site forms cannot set custom headers: requiring one stops CSRF on every write. The route
  // matched (or the decoded path) decides, never the raw target: `http://host/api/...` and
  // `/%61pi/...` reach the same routes as `/api/...`.
  app.addHook('onRequest', async (request, reply) => {
    if (!STATE_CHANGING.has(request.method)) return;
    const route = request.is404 ? undefined : request.routeOptions.url;
    if (!(route ?? targetPath(request.url)).startsWith('/api/')) return;
    // a provider's webhook proves itself by its signature and carries no cookie to abuse
    if (route && request.routeOptions.config.signedWebhook === true) return;
    if (request.headers['x-requested-with'] !== 'XMLHttpRequest') {
      return reply.status(403).send({
        code: 'CSRF_HEADER_MISSING',
        message: 'Missing X-Requested-With header',
        data: null,
      });
    }
  });

  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'AXEL Drive API', version: options.version ?? '0.1.0', description: 'Encrypted storage and sharing' },
      servers: [],
      components: {
        securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: 'axel_session' } },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs' });

  await registerStaticUi(app as unknown as FastifyInstance, { webDist: options.webDist, consoleDist: options.consoleDist });

  return app as unknown as FastifyInstance;
};
