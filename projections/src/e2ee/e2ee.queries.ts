import type { Pool } from 'pg';

export interface E2eeKeysRow {
  private_key: string | null;
  public_key: string | null;
  fingerprint: string | null;
  hint: string | null;
  encryption_default: boolean;
  global_default: boolean;
  key_reset_at: Date | null;
}

/** A user's end-to-end key and defaults (null before any was set). */
export const e2eeKeysOf = async (pool: Pool, userId: string): Promise<E2eeKeysRow | null> =>
  (await pool.query<E2eeKeysRow>('select * from e2ee_keys where user_id = $1', [userId])).rows[0] ?? null;

export interface ShareSignatureRow {
  id: string;
  signed_file_id: string;
  signed_file_name: string;
  mime: string | null;
  size: string | null;
  signer_key_id: string;
  pgpmessage: string;
  created_at: Date;
}

export const signaturesOfShare = async (pool: Pool, shareId: string): Promise<ShareSignatureRow[]> =>
  (await pool.query<ShareSignatureRow>('select * from share_signatures where share_id = $1 order by created_at, id', [shareId])).rows;

/** The shares of an owner that keep signatures (what the account purge forgets). */
export const sharesWithSignaturesOf = async (pool: Pool, ownerId: string): Promise<string[]> =>
  (await pool.query<{ share_id: string }>('select distinct share_id from share_signatures where owner_id = $1', [ownerId])).rows.map((r) => r.share_id);
