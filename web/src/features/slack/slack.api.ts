import { api } from '../../api/client';

export interface SlackLink {
  slackUserId: string;
  expires: number;
  signature: string;
}

/** `POST /users/{id}/slack/`: binds the Slack user of a signed `/slack-auth` link to the account. */
export const linkSlack = (userId: string, link: SlackLink) =>
  api.post<{ slackUserId: string; webhookUrl: string | null }>(`/users/${encodeURIComponent(userId)}/slack/`, link);
