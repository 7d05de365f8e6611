import { type E2eeEvent, userIdOfE2eeKeysStream } from '@axel/domain/e2ee/e2ee.events';
import { type ShareSignatureEvent, shareIdOfSignaturesStream } from '@axel/domain/e2ee/e2ee.signatures';
import { defineProjection } from '../runner/projection';

/**
 * Each user's end-to-end key as the user info shows it (`e2eePrivateKey`, still locked by the
 * passphrase only the browser knows), the hint and the defaults for new uploads. A forgotten
 * account takes its row with it.
 */
export const e2eeKeysProjection = defineProjection<'e2ee_keys', E2eeEvent>({
  name: 'e2ee_keys',
  handles: ['E2eeKeySet', 'E2eePassphraseChanged', 'E2eeKeyReset', 'E2eeDefaultsChanged', 'E2eeKeysForgotten'],
  tables: {
    e2ee_keys: (t) => `create table "${t}" (
      user_id text primary key,
      private_key text,
      public_key text,
      fingerprint text,
      hint text,
      encryption_default boolean not null default false,
      global_default boolean not null default false,
      key_set_at timestamptz,
      key_reset_at timestamptz
    );`,
  },
  async apply(tx, events, t) {
    const K = `"${t.e2ee_keys}"`;
    for (const e of events) {
      const userId = userIdOfE2eeKeysStream(e.streamName);
      switch (e.type) {
        case 'E2eeKeySet':
        case 'E2eeKeyReset':
          await tx.query(
            `insert into ${K} (user_id, private_key, public_key, fingerprint, hint, key_set_at, key_reset_at) values ($1, $2, $3, $4, $5, $6, $7)
             on conflict (user_id) do update set private_key = $2, public_key = $3, fingerprint = $4, hint = $5, key_set_at = coalesce(${K}.key_set_at, $6), key_reset_at = $7`,
            [userId, e.data.privateKeyCiphertext, e.data.publicKey, e.data.fingerprint, e.data.hint, e.data.at, e.type === 'E2eeKeyReset' ? e.data.at : null],
          );
          break;
        case 'E2eePassphraseChanged':
          await tx.query(`update ${K} set private_key = $2, hint = $3 where user_id = $1`, [userId, e.data.privateKeyCiphertext, e.data.hint]);
          break;
        case 'E2eeDefaultsChanged':
          await tx.query(
            `insert into ${K} (user_id, encryption_default, global_default) values ($1, $2, $3)
             on conflict (user_id) do update set encryption_default = $2, global_default = $3`,
            [userId, e.data.encryptionDefault, e.data.e2eeEnabledGlobalDefault],
          );
          break;
        case 'E2eeKeysForgotten':
          await tx.query(`delete from ${K} where user_id = $1`, [userId]);
          break;
        default:
          break;
      }
    }
  },
});

/** The signatures of shared files, per share (newest last), for the owner and the share's visitors. */
export const shareSignaturesProjection = defineProjection<'share_signatures', ShareSignatureEvent>({
  name: 'share_signatures',
  handles: ['ShareSignatureAdded', 'ShareSignaturesForgotten'],
  tables: {
    share_signatures: (t) => `create table "${t}" (
      id text primary key,
      share_id text not null,
      owner_id text not null,
      signed_file_id text not null,
      signed_file_name text not null,
      mime text,
      size bigint,
      signer_key_id text not null,
      pgpmessage text not null,
      created_at timestamptz not null
    );
    create index on "${t}" (share_id, created_at);
    create index on "${t}" (owner_id);`,
  },
  async apply(tx, events, t) {
    const S = `"${t.share_signatures}"`;
    for (const e of events) {
      const shareId = shareIdOfSignaturesStream(e.streamName);
      if (e.type === 'ShareSignatureAdded') {
        const d = e.data;
        await tx.query(
          `insert into ${S} (id, share_id, owner_id, signed_file_id, signed_file_name, mime, size, signer_key_id, pgpmessage, created_at)
           values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) on conflict (id) do nothing`,
          [d.signatureId, shareId, d.ownerId, d.signedFileId, d.signedFileName, d.mime, d.size, d.signerKeyId, d.pgpmessage, d.at],
        );
      } else if (e.type === 'ShareSignaturesForgotten') {
        await tx.query(`delete from ${S} where share_id = $1`, [shareId]);
      }
    }
  },
});
