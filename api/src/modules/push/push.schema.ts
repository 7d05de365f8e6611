import { z } from 'zod';

export const IdParams = z.object({ id: z.string().min(1).max(64) });
export const ErrorSchema = z.object({ code: z.union([z.string(), z.number()]), message: z.string(), data: z.unknown() });

/** A browser's PushSubscription as `toJSON()` gives it. */
export const BrowserSubscription = z.object({
  endpoint: z.string().url().max(2048),
  keys: z.object({ p256dh: z.string().min(40).max(200), auth: z.string().min(8).max(100) }),
});

/** The spec's `{ fcmToken }`: here the browser's push subscription, as an object or its JSON text. */
export const FcmTokenBody = z.object({
  fcmToken: z.union([
    BrowserSubscription,
    z
      .string()
      .max(4096)
      .transform((text, c) => {
        try {
          const parsed = BrowserSubscription.safeParse(JSON.parse(text));
          if (parsed.success) return parsed.data;
        } catch {
          /* reported below */
        }
        c.addIssue({ code: 'custom', message: 'validation.push_subscription' });
        return z.NEVER;
      }),
  ]),
});

export const SlackLinkBody = z.object({
  slackUserId: z.string().regex(/^[UW][A-Z0-9]{2,20}$/, 'a Slack user id'),
  expires: z.coerce.number().int().positive(),
  signature: z.string().min(20).max(100),
});
export const SlackWebhookBody = z.object({ webhookUrl: z.string().url().max(2048).nullable() });
export const SlackAnswer = z.object({ slackUserId: z.string(), webhookUrl: z.string().nullable() });
