import { autopayDecider, payeesOf, totalTokens, type AutoPayEvent, type ProgramState } from '@axel/domain/autopay/index';
import { defineProjection } from '../runner/projection';

/**
 * Auto-pay programs and their payees for the console. A program's row keeps its folded state
 * (the domain's own `evolve`), so the columns and the payee rows always agree with the decider.
 */
export const autopayProjection = defineProjection<'autopay_programs' | 'autopay_payees', AutoPayEvent>({
  name: 'autopay_programs',
  handles: [
    'AutoPayProgramCreated',
    'AutoPayProgramEdited',
    'AutoPayPayeeAdded',
    'AutoPayPayeeChanged',
    'AutoPayPayeeRemoved',
    'AutoPayPayeesImported',
    'AutoPayProgramSubmitted',
    'AutoPayProgramReturnedToDraft',
    'AutoPayProgramApproved',
    'AutoPayProgramRejected',
    'AutoPayApprovalReminded',
    'AutoPayProgramLocked',
    'AutoPayProgramUnlocked',
    'AutoPayProgramCancelled',
    'AutoPayPayoutStarted',
    'AutoPayPayeePaid',
    'AutoPayPayeePayoutFailed',
    'AutoPayPayoutFinished',
    'AutoPayRetryRequested',
  ],
  tables: {
    autopay_programs: (t) => `create table "${t}" (
      id text primary key,
      name text not null,
      name_key text not null,
      description text not null,
      status text not null,
      created_by text not null,
      submitted_by text,
      authorised_by text,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      users_count int not null,
      imported boolean not null,
      total_tokens bigint not null,
      reminders int not null,
      state jsonb not null
    );
    create index on "${t}" (name_key);`,
    autopay_payees: (t) => `create table "${t}" (
      program_id text not null,
      payee_id text not null,
      position int not null,
      email text not null,
      amount bigint not null,
      address text,
      payer_name text,
      payee_name text,
      transaction_type text,
      account_notes text,
      payout_status text not null,
      txid text,
      paid_to text,
      created_address boolean not null,
      failure text,
      primary key (program_id, payee_id)
    );`,
  },
  async apply(tx, events, t) {
    const P = `"${t.autopay_programs}"`;
    const Y = `"${t.autopay_payees}"`;
    for (const e of events) {
      const programId = e.streamName.slice('autopay-'.length);
      const { rows } = await tx.query<{ state: ProgramState; created_at: Date }>(`select state, created_at from ${P} where id = $1 for update`, [programId]);
      const before = rows[0]?.state ?? autopayDecider.initialState();
      const state = autopayDecider.evolve(before, e);
      if (state.status === 'none') continue;
      const payees = payeesOf(state);
      await tx.query(
        `insert into ${P} (id, name, name_key, description, status, created_by, submitted_by, authorised_by, created_at, updated_at, users_count, imported, total_tokens, reminders, state)
         values ($1, $2, lower($2), $3, $4, $5, $6, $7, $8, $8, $9, $10, $11, $12, $13)
         on conflict (id) do update set name = excluded.name, name_key = excluded.name_key, description = excluded.description, status = excluded.status,
           submitted_by = excluded.submitted_by, authorised_by = excluded.authorised_by, updated_at = excluded.updated_at,
           users_count = excluded.users_count, imported = excluded.imported, total_tokens = excluded.total_tokens, reminders = excluded.reminders, state = excluded.state`,
        [
          programId,
          state.name,
          state.description,
          state.status,
          state.createdBy,
          state.submittedBy,
          state.approvedBy,
          e.recordedAt,
          payees.length,
          state.imported,
          totalTokens(state),
          state.reminders,
          JSON.stringify(state),
        ],
      );
      await tx.query(`delete from ${Y} where program_id = $1`, [programId]);
      for (const [position, p] of payees.entries()) {
        await tx.query(
          `insert into ${Y} (program_id, payee_id, position, email, amount, address, payer_name, payee_name, transaction_type, account_notes, payout_status, txid, paid_to, created_address, failure)
           values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)`,
          [
            programId,
            p.payeeId,
            position,
            p.email,
            p.amount,
            p.address,
            p.payerName,
            p.payeeName,
            p.transactionType,
            p.accountNotes,
            p.payout,
            p.txid,
            p.paidTo,
            p.createdAddress,
            p.failure,
          ],
        );
      }
    }
  },
});
