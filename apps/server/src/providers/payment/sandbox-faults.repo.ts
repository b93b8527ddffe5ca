import { type Database, type Kysely, sql } from '@kyfw/db';
import type { PayChannel } from './payment.types.ts';
import { noFaults, type SandboxFaults } from './sandbox-notifier.ts';

/** The faults that are counted: each call that meets one consumes it. */
export type FaultCounter = 'failNext' | 'dropNext' | 'duplicateNext' | 'failApiNext' | 'refuseRefundNext';

const CHANNELS = ['wx', 'ali'] as const;

/**
 * The sandbox platforms' fault switches (what `POST /__dev/pay/faults` sets). The app keeps them in
 * the database beside the books (payment_sandbox_faults, migration 0065), so a fault switched on
 * through one API process of the scaled mode is in force in all of them and each counted fault is
 * consumed exactly once; without a database (the provider's own tests) in memory.
 */
export interface SandboxFaultBook {
  /** The faults in force now, per channel. */
  read(): Promise<Record<PayChannel, SandboxFaults>>;
  /** Sets some faults of one channel (or of both when channel is omitted). */
  set(patch: Partial<SandboxFaults>, channel?: PayChannel): Promise<void>;
  /** Clears every fault. */
  reset(): Promise<void>;
  /** Consumes one of `counter` on `channel` when any is left: true when this call got one. */
  take(channel: PayChannel, counter: FaultCounter): Promise<boolean>;
  /** Returns one taken fault that ended up unused (the call failed for another reason first). */
  giveBack(channel: PayChannel, counter: FaultCounter): Promise<void>;
}

/** One process only; `faults` is the live state (changed at once, also before a returned promise settles). */
export function memoryFaultBook(): SandboxFaultBook & { readonly faults: Record<PayChannel, SandboxFaults> } {
  const faults: Record<PayChannel, SandboxFaults> = { wx: noFaults(), ali: noFaults() };
  return {
    faults,
    async read() {
      return { wx: { ...faults.wx }, ali: { ...faults.ali } };
    },
    set(patch, channel) {
      for (const c of channel ? [channel] : CHANNELS) Object.assign(faults[c], patch);
      return Promise.resolve();
    },
    reset() {
      for (const c of CHANNELS) Object.assign(faults[c], noFaults());
      return Promise.resolve();
    },
    async take(channel, counter) {
      if (faults[channel][counter] <= 0) return false;
      faults[channel][counter]--;
      return true;
    },
    async giveBack(channel, counter) {
      faults[channel][counter]++;
    },
  };
}

const COLUMNS = {
  failNext: 'fail_next',
  dropNext: 'drop_next',
  duplicateNext: 'duplicate_next',
  duplicateConcurrently: 'duplicate_concurrently',
  delayMs: 'delay_ms',
  failApiNext: 'fail_api_next',
  refuseRefundNext: 'refuse_refund_next',
} as const satisfies Record<keyof SandboxFaults, string>;

/**
 * Faults in payment_sandbox_faults (one row per channel, made by the migration): a take is one
 * `update … set n = n - 1 where n > 0`, so two processes meeting the last fault at once consume it
 * once between them.
 */
export function databaseFaultBook(db: Kysely<Database>, now: () => number = Date.now): SandboxFaultBook {
  const columnsOf = (patch: Partial<SandboxFaults>) =>
    Object.fromEntries(
      Object.entries(patch)
        .filter(([, value]) => value !== undefined)
        .map(([name, value]) => [COLUMNS[name as keyof SandboxFaults], value]),
    );
  return {
    async read() {
      const rows = await db.selectFrom('payment_sandbox_faults').selectAll().execute();
      const result = { wx: noFaults(), ali: noFaults() };
      for (const row of rows) {
        result[row.channel] = {
          failNext: row.fail_next,
          dropNext: row.drop_next,
          duplicateNext: row.duplicate_next,
          duplicateConcurrently: row.duplicate_concurrently,
          delayMs: row.delay_ms,
          failApiNext: row.fail_api_next,
          refuseRefundNext: row.refuse_refund_next,
        };
      }
      return result;
    },
    async set(patch, channel) {
      const columns = columnsOf(patch);
      if (Object.keys(columns).length === 0) return;
      await db
        .updateTable('payment_sandbox_faults')
        .set({ ...columns, updated_at: new Date(now()) })
        .where('channel', 'in', channel ? [channel] : [...CHANNELS])
        .execute();
    },
    async reset() {
      await db
        .updateTable('payment_sandbox_faults')
        .set({ ...columnsOf(noFaults()), updated_at: new Date(now()) })
        .execute();
    },
    async take(channel, counter) {
      const column = sql.ref(COLUMNS[counter]);
      const result = await db
        .updateTable('payment_sandbox_faults')
        .set({ [COLUMNS[counter]]: sql`${column} - 1`, updated_at: new Date(now()) })
        .where('channel', '=', channel)
        .where(column, '>', 0)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async giveBack(channel, counter) {
      const column = sql.ref(COLUMNS[counter]);
      await db
        .updateTable('payment_sandbox_faults')
        .set({ [COLUMNS[counter]]: sql`least(${column} + 1, 1000)`, updated_at: new Date(now()) })
        .where('channel', '=', channel)
        .execute();
    },
  };
}
