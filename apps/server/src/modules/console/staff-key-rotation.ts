import type { Database, Kysely } from '@kyfw/db';
import { derivedMacKeyOf, isSealedValue, openWith, RECOVERY_MAC_KEY, sealWith } from './staff-secrets.ts';

/**
 * STAFF_SECRET_KEY rotation (`npm run --silent operator -- rotate-key`, README "Rotating
 * STAFF_SECRET_KEY"): everything sealed under the old key is sealed again under the new one, in one
 * transaction — each staff account's TOTP secret, and the recovery codes' MAC key (whose HMACs
 * cannot be recomputed without the codes: it is moved, sealed, into staff_sealed_keys the first
 * time). Safe to re-run: a value the new key already opens is left as it is. A value neither key
 * opens refuses the whole rotation, and nothing changes.
 */

export interface RotationResult {
  /** TOTP secrets sealed again under the new key (from the old key, or from clear). */
  resealed: number;
  /** TOTP secrets the new key already opened (a re-run, or accounts created during the change). */
  unchanged: number;
  /** The recovery codes' MAC key: moved into the database, re-sealed, or already under the new key. */
  recoveryMacKey: 'moved' | 'resealed' | 'unchanged';
}

export class KeyRotationError extends Error {
  override readonly name = 'KeyRotationError';
}

export async function rotateStaffKey(
  db: Kysely<Database>,
  keys: { oldKey: string; newKey: string },
): Promise<RotationResult> {
  const { oldKey, newKey } = keys;
  if (oldKey === newKey)
    throw new KeyRotationError(
      '新旧密钥相同：请把新密钥设为 STAFF_SECRET_KEY，旧密钥设为 STAFF_SECRET_KEY_PREVIOUS',
    );
  return db.transaction().execute(async (tx) => {
    // Locks every account (and the key row) until the end: a login sealing a clear secret, a reset or
    // a second rotation waits instead of writing under the old key in between.
    const accounts = await tx
      .selectFrom('staff_accounts')
      .select(['id', 'username', 'totp_secret'])
      .orderBy('id')
      .forUpdate()
      .execute();
    let resealed = 0;
    let unchanged = 0;
    let oldKeyProven = false;
    for (const account of accounts) {
      let secret: string;
      if (!isSealedValue(account.totp_secret)) {
        secret = account.totp_secret;
      } else if (openWith(newKey, account.totp_secret) !== undefined) {
        unchanged++;
        continue;
      } else {
        const opened = openWith(oldKey, account.totp_secret);
        if (opened === undefined) {
          throw new KeyRotationError(
            `运营账号 ${account.username} 的动态验证码密钥无法用旧密钥或新密钥解开：请检查 STAFF_SECRET_KEY_PREVIOUS（旧密钥）是否正确。未做任何更改`,
          );
        }
        oldKeyProven = true;
        secret = opened;
      }
      await tx
        .updateTable('staff_accounts')
        .set({ totp_secret: sealWith(newKey, secret) })
        .where('id', '=', account.id)
        .execute();
      resealed++;
    }

    const row = await tx
      .selectFrom('staff_sealed_keys')
      .select('sealed')
      .where('name', '=', RECOVERY_MAC_KEY)
      .forUpdate()
      .executeTakeFirst();
    let recoveryMacKey: RotationResult['recoveryMacKey'];
    let macKey: string;
    if (row && openWith(newKey, row.sealed) !== undefined) {
      return { resealed, unchanged, recoveryMacKey: 'unchanged' };
    }
    if (row) {
      const opened = openWith(oldKey, row.sealed);
      if (opened === undefined) {
        throw new KeyRotationError(
          '恢复码密钥无法用旧密钥或新密钥解开：请检查 STAFF_SECRET_KEY_PREVIOUS（旧密钥）是否正确。未做任何更改',
        );
      }
      macKey = opened;
      recoveryMacKey = 'resealed';
    } else {
      // Never rotated: the codes' MAC key is derived from the old key. With recovery codes stored
      // and no secret the old key opened, nothing shows the old key is the right one: refuse.
      const codes = await tx.selectFrom('staff_recovery_codes').select('staff_id').limit(1).execute();
      if (codes.length > 0 && !oldKeyProven) {
        throw new KeyRotationError(
          '无法确认旧密钥：没有一个动态验证码密钥能用 STAFF_SECRET_KEY_PREVIOUS 解开。未做任何更改',
        );
      }
      macKey = derivedMacKeyOf(oldKey).toString('base64url');
      recoveryMacKey = 'moved';
    }
    await tx
      .insertInto('staff_sealed_keys')
      .values({ name: RECOVERY_MAC_KEY, sealed: sealWith(newKey, macKey), updated_at: new Date() })
      .onConflict((oc) =>
        oc.column('name').doUpdateSet({ sealed: (eb) => eb.ref('excluded.sealed'), updated_at: new Date() }),
      )
      .execute();
    return { resealed, unchanged, recoveryMacKey };
  });
}
