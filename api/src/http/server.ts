import { randomUUID } from 'node:crypto';
import fastifyCookie from '@fastify/cookie';
import fastifyHelmet from '@fastify/helmet';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance } from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { Logger } from '../logger';
import { registerErrorHandling } from './errors';
import { registerStaticUi } from './static';

export type App = FastifyInstance & { withTypeProvider<T>(): FastifyInstance };

export interface ServerOptions {
  readonly logger: Logger;
  readonly trustProxy?: boolean;
  /** Built web app and console; served when present. */
  readonly webDist?: string;
  readonly consoleDist?: string;
  readonly version?: string;
}

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export const createServer = async (options: ServerOptions) => {
  const app = Fastify({
    loggerInstance: options.logger,
    trustProxy: options.trustProxy ?? false,
    bodyLimit: 4 * 1024 * 1024,
    // every request carries a correlation id: the client's when it sends one, else a new one
    genReqId: (req) => {
      const given = req.headers['x-correlation-id'];
      return typeof given === 'string' && /^[\w-]{8,64}$/.test(given) ? given : randomUUID();
    },
  }).withTypeProvider<ZodTypeProvider>();

  // every route, for tests that must cover all of them (e.g. authorisation of /api/admin/)
  const routeList: { method: string; url: string }[] = [];
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) routeList.push({ method, url: route.url });
  });
  app.decorate('routeList', routeList);

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app as unknown as FastifyInstance);

  app.addHook('onSend', async (request, reply, payload) => {
    reply.header('x-correlation-id', request.id);
    return payload;
  });

  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        styleSrc: ["'self'", "'unsafe-inline'"],
        scriptSrc: ["'self'"],
        connectSrc: ["'self'"],
        fontSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
  });
  await app.register(fastifyCookie);
  // Limits count per address and, where a form names an account, per account too: one busy office
  // behind one IP does not lock everyone out, and one account cannot be hammered from many.
  await app.register(fastifyRateLimit, {
    global: false,
    hook: 'preHandler',
    keyGenerator: (request) => {
      const body = request.body as { email?: unknown } | undefined;
      const email = body && typeof body.email === 'string' ? body.email.toLowerCase() : '';
      return `${request.ip}|${email}`;
    },
  });

  // Cross-site forms cannot set custom headers: requiring one stops CSRF on every write.
  app.addHook('onRequest', async (request, reply) => {
    if (!request.url.startsWith('/api/') || !STATE_CHANGING.has(request.method)) return;
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

export type Server = Awaited<ReturnType<typeof createServer>>;
