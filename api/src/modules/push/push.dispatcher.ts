import { renderNotice, type NoticeParams } from '@axel/domain';
import { DrainLoop } from '@axel/platform';
import type { Logger } from '../../logger';
import type { PushStore } from './push.store';
import { postToSlack, type PushSender } from './web-push.adapter';

/** Notices Slack hears of: files arriving (what a user waits for), not account security notices. */
const SLACK_NOTICES = new Set(['secure_fetch_files_arrived', 'share_opened']);

/**
 * Pushes each new notice once to the account's browsers (web push) and, for arrivals, to its Slack
 * webhook. A notice is claimed in PostgreSQL before it is sent, so several processes never push
 * it twice; a push service's 404/410 drops the subscription. Polls, and is kicked when read models
 * move.
 */
export class PushDispatcher {
  private readonly loop: DrainLoop;

  constructor(
    private readonly deps: {
      store: PushStore;
      sender: PushSender;
      log: Logger;
      now: () => Date;
      appUrl: string;
      intervalMs: number;
    },
  ) {
    this.loop = new DrainLoop(() => this.drain(), { intervalMs: deps.intervalMs, onError: (error) => deps.log.warn({ err: error }, 'push dispatch failed') });
  }

  start(): void {
    this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  kick(): void {
    this.loop.kick();
  }

  private async drain(): Promise<void> {
    const { store, sender, log, now } = this.deps;
    for (const notice of await store.pending(50)) {
      if (this.loop.isStopped()) return;
      if (!(await store.claim(notice.id, now()))) continue;
      const { title, body } = renderNotice(notice.type, notice.params as NoticeParams, notice.locale);
      const payload = JSON.stringify({ id: notice.id, type: notice.type, title, body, url: `${this.deps.appUrl}/notifications` });
      for (const target of await store.of(notice.user_id)) {
        try {
          if ((await sender.send(target, payload)) === 'gone') await store.drop(target.endpoint);
        } catch (error) {
          log.warn({ err: error, notice: notice.id }, 'push not delivered');
        }
      }
      if (SLACK_NOTICES.has(notice.type)) {
        const slack = await store.slackOf(notice.user_id);
        if (slack?.webhook_url) {
          await postToSlack(slack.webhook_url, `*${title}*\n${body}\n${this.deps.appUrl}/notifications`).catch((error) =>
            log.warn({ err: error, notice: notice.id }, 'Slack notice not delivered'),
          );
        }
      }
    }
  }
}
