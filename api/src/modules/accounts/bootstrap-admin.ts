import { randomBytes } from 'node:crypto';
import type { AppContext } from '../../context';
import { userIdByEmail } from './use-cases/account-store';
import { registerUser } from './use-cases/register-user';

/**
 * First start: when no super_admin exists yet, create one (from ADMIN_EMAIL/ADMIN_PASSWORD or a
 * generated password that the caller prints once).
 */
export const bootstrapAdmin = async (ctx: AppContext): Promise<{ email: string; generatedPassword: string | null } | null> => {
  const { rows } = await ctx.pool
    .query("select 1 from es_events where event_type = 'UserRegistered' and data->>'role' = 'super_admin' limit 1")
    .catch(() => ({ rows: [] as unknown[] }));
  if (rows.length) return null;
  const email = (ctx.config.ADMIN_EMAIL ?? 'admin@axel.local').toLowerCase();
  const generated = ctx.config.ADMIN_PASSWORD ? null : `${randomBytes(9).toString('base64url')}#7a`;
  if (await userIdByEmail(ctx, email)) return null;
  const { position } = await registerUser(
    ctx,
    { email, password: ctx.config.ADMIN_PASSWORD ?? generated!, locale: 'en_us', role: 'super_admin', termsAccepted: true },
    { ip: null, userAgent: null, client: 'bootstrap', correlationId: 'bootstrap' },
    { id: 'system' },
  );
  await ctx.caughtUp(position);
  return { email, generatedPassword: generated };
};
