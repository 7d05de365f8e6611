import type { Module } from '../../module';
import { PushDispatcher } from './push.dispatcher';
import { pushRoutes } from './push.routes';
import { pushMigrations, pushStore } from './push.store';
import { loadVapidKeys, webPushSender, type PushSender } from './web-push.adapter';

/**
 * Notices pushed where users are: browsers (Web Push with VAPID, standing for the spec's FCM
 * tokens) and Slack (a linked Slack user's incoming webhook hears of arrivals). `sender` replaces
 * the web-push adapter only where a test names another port implementation.
 */
export const createPushModule = (deps: { readonly sender?: PushSender; readonly intervalMs?: number } = {}): Module => {
  let dispatcher: PushDispatcher | undefined;
  return {
    name: 'push',
    migrations: pushMigrations,
    routes: (ctx) => pushRoutes(ctx, pushStore(ctx.pool), loadVapidKeys(ctx.config)),
    async start(ctx, roles) {
      if (!roles.has('worker')) return;
      dispatcher = new PushDispatcher({
        store: pushStore(ctx.pool),
        sender: deps.sender ?? webPushSender(loadVapidKeys(ctx.config)),
        log: ctx.log,
        now: ctx.now,
        appUrl: ctx.config.publicUrl,
        intervalMs: deps.intervalMs ?? 1000,
      });
      dispatcher.start();
    },
    async stop() {
      await dispatcher?.stop();
    },
    forget: (ctx, userId) => pushStore(ctx.pool).forget(userId),
  };
};
