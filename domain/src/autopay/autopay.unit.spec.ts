import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../shared/errors';
import { ACTIONS_BY_STATUS, autopayDecider, type AutoPayCommand, type ProgramState } from './autopay.decide';
import type { AutoPayEvent, PayeeFields } from './autopay.events';
import { payeeFromInput } from './payees';

const at = { now: new Date('2026-11-01T00:00:00Z') };
const payee = (n: number): PayeeFields => ({
  payeeId: `p${n}`,
  email: `p${n}@example.com`,
  amount: 100_000_000,
  address: null,
  payerName: null,
  payeeName: null,
  transactionType: null,
  accountNotes: null,
});
const c = <T extends AutoPayCommand['type']>(type: T, data: Extract<AutoPayCommand, { type: T }>['data']) => ({ type, data, metadata: at }) as AutoPayCommand;

const run = (commands: AutoPayCommand[], from: ProgramState = autopayDecider.initialState()) => {
  let state = from;
  const events: AutoPayEvent[] = [];
  for (const command of commands) {
    const out = autopayDecider.decide(command, state);
    events.push(...out);
    state = out.reduce(autopayDecider.evolve, state);
  }
  return { state, events };
};
const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    if (error instanceof DomainError) return { code: error.code, data: error.data };
    throw error;
  }
  throw new Error('expected a refusal');
};

const draft = [
  c('CreateProgram', { programId: 'prog', name: 'Spring bonus', description: 'Thanks', by: 'alice' }),
  c('ImportPayees', { payees: [payee(1), payee(2)], replace: true, by: 'alice' }),
];

describe('auto-pay program', () => {
  it('goes draft, submitted, approved by someone else, paying, paid', () => {
    const { state } = run([
      ...draft,
      c('SubmitProgram', { by: 'alice' }),
      c('ApproveProgram', { by: 'bob' }),
      c('StartPayout', { submission: 1 }),
      c('RecordPayeePaid', { payeeId: 'p1', txid: 't1', address: 'a1', createdAddress: true }),
      c('RecordPayeePaid', { payeeId: 'p2', txid: 't2', address: 'a2', createdAddress: false }),
      c('FinishPayout', { submission: 1 }),
    ]);
    expect(state.status).toBe('paid');
    expect(state.imported).toBe(true);
    expect(state.approvedBy).toBe('bob');
  });

  it('four eyes: the submitter neither approves nor rejects', () => {
    const { state } = run([...draft, c('SubmitProgram', { by: 'alice' })]);
    expect(refusal(() => autopayDecider.decide(c('ApproveProgram', { by: 'alice' }), state))).toEqual({ code: 'FORBIDDEN', data: { reason: 'four_eyes' } });
    expect(refusal(() => autopayDecider.decide(c('RejectProgram', { by: 'alice' }), state)).code).toBe('FORBIDDEN');
  });

  it('refuses actions its status does not allow, and a submission without payees', () => {
    const { state } = run([c('CreateProgram', { programId: 'prog', name: 'n', description: 'd', by: 'alice' })]);
    expect(refusal(() => autopayDecider.decide(c('SubmitProgram', { by: 'alice' }), state)).code).toBe('AUTOPAY_NO_PAYEES');
    expect(refusal(() => autopayDecider.decide(c('ApproveProgram', { by: 'bob' }), state))).toEqual({
      code: 'AUTOPAY_ACTION_NOT_ALLOWED',
      data: { action: 'approve', status: 'draft' },
    });
    const approved = run([...draft, c('SubmitProgram', { by: 'alice' }), c('ApproveProgram', { by: 'bob' })]).state;
    expect(refusal(() => autopayDecider.decide(c('ImportPayees', { payees: [], replace: true, by: 'carol' }), approved)).code).toBe(
      'AUTOPAY_ACTION_NOT_ALLOWED',
    );
  });

  it('a change to a submitted program sends it back to draft; whoever changed it since submission never approves it', () => {
    const submitted = run([...draft, c('SubmitProgram', { by: 'alice' })]).state;
    const edited = run([c('ChangePayee', { payee: { ...payee(1), address: 'Attacker1' }, by: 'bob' })], submitted);
    expect(edited.events.map((e) => e.type)).toEqual(['AutoPayProgramReturnedToDraft', 'AutoPayPayeeChanged']);
    expect(edited.state.status).toBe('draft');
    expect(refusal(() => autopayDecider.decide(c('ApproveProgram', { by: 'bob' }), edited.state)).code).toBe('AUTOPAY_ACTION_NOT_ALLOWED');
    // submitted again by the first submitter: the one who changed it still may not approve, another may
    const again = run([c('SubmitProgram', { by: 'alice' })], edited.state).state;
    expect(refusal(() => autopayDecider.decide(c('ApproveProgram', { by: 'bob' }), again))).toEqual({
      code: 'FORBIDDEN',
      data: { reason: 'four_eyes', changed: true },
    });
    expect(run([c('ApproveProgram', { by: 'carol' })], again).state.status).toBe('approved');
    // every kind of change counts, through lock and unlock or a rejection too
    const changes: AutoPayCommand[] = [
      c('EditProgram', { name: 'Other', description: 'd', by: 'bob' }),
      c('AddPayee', { payee: payee(3), by: 'bob' }),
      c('RemovePayee', { payeeId: 'p2', by: 'bob' }),
      c('ImportPayees', { payees: [payee(4)], replace: false, by: 'bob' }),
    ];
    for (const changeCommand of changes) {
      for (const detour of [
        [],
        [c('LockProgram', { by: 'carol' }), c('UnlockProgram', { by: 'carol' })],
        [c('RejectProgram', { by: 'carol' })],
      ] as AutoPayCommand[][]) {
        const state = run([...detour, changeCommand, c('SubmitProgram', { by: 'alice' })], submitted).state;
        expect(state.status).toBe('submitted');
        expect(refusal(() => autopayDecider.decide(c('ApproveProgram', { by: 'bob' }), state)).code, changeCommand.type).toBe('FORBIDDEN');
      }
    }
    // changes before the first submission are the draft being written: its author may approve what another submitted
    const written = run(
      [c('AddPayee', { payee: payee(3), by: 'bob' }), c('SubmitProgram', { by: 'alice' }), c('ApproveProgram', { by: 'bob' })],
      run(draft).state,
    );
    expect(written.state.status).toBe('approved');
  });

  it('an approval that expires rejects the submission; a reminder or expiry of an older submission does nothing', () => {
    const { state } = run([...draft, c('SubmitProgram', { by: 'alice' }), c('RemindApprovers', { submission: 1 }), c('ExpireApproval', { submission: 1 })]);
    expect(state.status).toBe('rejected');
    expect(state.reminders).toBe(1);
    const again = run([c('SubmitProgram', { by: 'alice' })], state).state;
    expect(autopayDecider.decide(c('ExpireApproval', { submission: 1 }), again)).toEqual([]);
    expect(again.submission).toBe(2);
  });

  it('retry pays only the failed payees again', () => {
    const { state } = run([
      ...draft,
      c('SubmitProgram', { by: 'alice' }),
      c('ApproveProgram', { by: 'bob' }),
      c('StartPayout', { submission: 1 }),
      c('RecordPayeePaid', { payeeId: 'p1', txid: 't1', address: 'a1', createdAddress: false }),
      c('RecordPayeeFailed', { payeeId: 'p2', failure: 'WALLET_INSUFFICIENT_FUNDS' }),
      c('FinishPayout', { submission: 1 }),
    ]);
    expect(state.status).toBe('partially_failed');
    const retried = run([c('RetryPayout', { by: 'alice' }), c('StartPayout', { submission: 1 })], state).state;
    expect(retried.status).toBe('paying');
    expect(retried.attempt).toBe(2);
    expect(retried.payees.p1!.payout).toBe('paid');
    expect(retried.payees.p2!.payout).toBe('pending');
    expect(autopayDecider.decide(c('RecordPayeePaid', { payeeId: 'p1', txid: 't9', address: 'a1', createdAddress: false }), retried)).toEqual([]);
  });

  const CHANGES: readonly string[] = ['AutoPayProgramEdited', 'AutoPayPayeeAdded', 'AutoPayPayeeChanged', 'AutoPayPayeeRemoved', 'AutoPayPayeesImported'];
  it('under any sequence of commands, no payee is recorded paid twice, no one approves what they submitted or changed since submission, and the status always has its actions', () => {
    const by = fc.constantFrom('alice', 'bob');
    const command: fc.Arbitrary<AutoPayCommand> = fc.oneof(
      by.map((b) => c('ImportPayees', { payees: [payee(1), payee(2), payee(3)], replace: true, by: b })),
      by.map((b) => c('ChangePayee', { payee: { ...payee(1), amount: 7 }, by: b })),
      by.map((b) => c('SubmitProgram', { by: b })),
      by.map((b) => c('ApproveProgram', { by: b })),
      by.map((b) => c('RejectProgram', { by: b })),
      by.map((b) => c('LockProgram', { by: b })),
      by.map((b) => c('UnlockProgram', { by: b })),
      by.map((b) => c('RetryPayout', { by: b })),
      fc.integer({ min: 1, max: 3 }).map((s) => c('StartPayout', { submission: s })),
      fc.integer({ min: 1, max: 3 }).map((s) => c('FinishPayout', { submission: s })),
      fc.integer({ min: 1, max: 3 }).map((s) => c('ExpireApproval', { submission: s })),
      fc.integer({ min: 1, max: 3 }).map((n) => c('RecordPayeePaid', { payeeId: `p${n}`, txid: `t${n}`, address: `a${n}`, createdAddress: false })),
      fc.integer({ min: 1, max: 3 }).map((n) => c('RecordPayeeFailed', { payeeId: `p${n}`, failure: 'X' })),
    );
    fc.assert(
      fc.property(fc.array(command, { maxLength: 60 }), (commands) => {
        let state = run([c('CreateProgram', { programId: 'prog', name: 'n', description: 'd', by: 'alice' })]).state;
        const paid: string[] = [];
        const changedSinceSubmission: string[] = [];
        for (const cmd of commands) {
          let out: AutoPayEvent[] = [];
          try {
            out = autopayDecider.decide(cmd, state);
          } catch (error) {
            if (!(error instanceof DomainError)) throw error;
          }
          for (const e of out) {
            if (e.type === 'AutoPayPayeePaid') paid.push(e.data.payeeId);
            // four eyes: an approval never comes from the submitter or from anyone who changed the program since it was submitted
            if (e.type === 'AutoPayProgramApproved') expect([state.submittedBy, ...changedSinceSubmission]).not.toContain(e.data.by);
            // the model: whoever's command changed the program once it had been submitted
            if (state.submission > 0 && CHANGES.includes(e.type)) changedSinceSubmission.push((cmd.data as { by: string }).by);
            if (e.type === 'AutoPayPayeesImported') paid.length = 0;
            state = autopayDecider.evolve(state, e);
          }
          expect(state.status !== 'none' && ACTIONS_BY_STATUS[state.status]).toBeTruthy();
        }
        expect(new Set(paid).size).toBe(paid.length);
      }),
    );
  });
});

describe('payee rows', () => {
  it('names the row and field of every error', () => {
    const { payee: p, errors } = payeeFromInput({ email: 'nope', amount: '1.123456789', address: 'short' }, 7, 'x');
    expect(p).toBeNull();
    expect(errors).toEqual([
      { row: 7, field: 'email', message: 'validation.email' },
      { row: 7, field: 'amount', message: 'wallet.invalidAmount' },
      { row: 7, field: 'address', message: 'wallet.invalidAddress' },
    ]);
    expect(payeeFromInput({ email: ' A@B.co ', amount: '2.5' }, 1, 'x').payee).toMatchObject({ email: 'a@b.co', amount: 250_000_000, address: null });
  });
});
