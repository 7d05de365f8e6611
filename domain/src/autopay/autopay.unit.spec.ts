import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DeciderSpecification } from '../shared/decider.testing';
import { DomainError } from '../shared/errors';
import { ACTIONS_BY_STATUS, autopayDecider, type AutoPayCommand } from './autopay.decide';
import { AutoPayErrors } from './autopay.errors';
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

const given = DeciderSpecification.for(autopayDecider);

const created: AutoPayEvent = { type: 'AutoPayProgramCreated', data: { programId: 'prog', name: 'Spring bonus', description: 'Thanks', createdBy: 'alice' } };
const imported: AutoPayEvent = { type: 'AutoPayPayeesImported', data: { payees: [payee(1), payee(2)], replaced: true, by: 'alice' } };
const draft = [created, imported];
const submitted = (submission: number, by = 'alice'): AutoPayEvent => ({ type: 'AutoPayProgramSubmitted', data: { submission, by } });
const approved = (submission: number, by = 'bob'): AutoPayEvent => ({ type: 'AutoPayProgramApproved', data: { submission, by } });
const payoutStarted = (submission: number, attempt: number): AutoPayEvent => ({ type: 'AutoPayPayoutStarted', data: { submission, attempt } });
const payeePaid = (n: number, createdAddress = false): AutoPayEvent => ({
  type: 'AutoPayPayeePaid',
  data: { payeeId: `p${n}`, txid: `t${n}`, address: `a${n}`, createdAddress },
});
const returnedToDraft = (submission: number, by: string): AutoPayEvent => ({ type: 'AutoPayProgramReturnedToDraft', data: { submission, by } });

describe('auto-pay program', () => {
  it('goes draft, submitted, approved by someone else, paying, paid', () => {
    given([])
      .when(c('CreateProgram', { programId: 'prog', name: 'Spring bonus', description: 'Thanks', by: 'alice' }))
      .then([created]);
    given([created])
      .when(c('ImportPayees', { payees: [payee(1), payee(2)], replace: true, by: 'alice' }))
      .then([imported]);
    given(draft)
      .when(c('SubmitProgram', { by: 'alice' }))
      .then([submitted(1)]);
    given([...draft, submitted(1)])
      .when(c('ApproveProgram', { by: 'bob' }))
      .then([approved(1)]);
    given([...draft, submitted(1), approved(1)])
      .when(c('StartPayout', { submission: 1 }))
      .then([payoutStarted(1, 1)]);
    const paying = [...draft, submitted(1), approved(1), payoutStarted(1, 1)];
    given(paying)
      .when(c('RecordPayeePaid', { payeeId: 'p1', txid: 't1', address: 'a1', createdAddress: true }))
      .then([payeePaid(1, true)]);
    given([...paying, payeePaid(1, true)])
      .when(c('RecordPayeePaid', { payeeId: 'p2', txid: 't2', address: 'a2', createdAddress: false }))
      .then([payeePaid(2)]);
    given([...paying, payeePaid(1, true), payeePaid(2)])
      .when(c('FinishPayout', { submission: 1 }))
      .thenState((state) => {
        expect(state.status).toBe('paid');
        expect(state.imported).toBe(true);
        expect(state.approvedBy).toBe('bob');
      });
  });

  it('four eyes: the submitter neither approves nor rejects', () => {
    given([...draft, submitted(1)])
      .when(c('ApproveProgram', { by: 'alice' }))
      .thenThrows(AutoPayErrors.fourEyes, { reason: 'four_eyes' });
    given([...draft, submitted(1)])
      .when(c('RejectProgram', { by: 'alice' }))
      .thenThrows(AutoPayErrors.fourEyes);
  });

  it('refuses actions its status does not allow, and a submission without payees', () => {
    const bare: AutoPayEvent = { type: 'AutoPayProgramCreated', data: { programId: 'prog', name: 'n', description: 'd', createdBy: 'alice' } };
    given([created])
      .when(c('CreateProgram', { programId: 'prog', name: 'n', description: 'd', by: 'alice' }))
      .thenNothingHappened();
    given([])
      .when(c('CreateProgram', { programId: 'prog', name: 'n', description: 'd', by: 'alice' }))
      .then([bare]);
    given([bare])
      .when(c('SubmitProgram', { by: 'alice' }))
      .thenThrows(AutoPayErrors.noPayees);
    given([bare])
      .when(c('ApproveProgram', { by: 'bob' }))
      .thenThrows(AutoPayErrors.notAllowed, { action: 'approve', status: 'draft' });
    given([...draft, submitted(1), approved(1)])
      .when(c('ImportPayees', { payees: [], replace: true, by: 'carol' }))
      .thenThrows(AutoPayErrors.notAllowed);
  });

  it('a change to a submitted program sends it back to draft; whoever changed it since submission never approves it', () => {
    const attacked = { ...payee(1), address: 'Attacker1' };
    const changedByBob: AutoPayEvent = { type: 'AutoPayPayeeChanged', data: { ...attacked, by: 'bob' } };
    given([...draft, submitted(1)])
      .when(c('ChangePayee', { payee: attacked, by: 'bob' }))
      .thenState((state, events) => {
        expect(events.map((e) => e.type)).toEqual(['AutoPayProgramReturnedToDraft', 'AutoPayPayeeChanged']);
        expect(events).toEqual([returnedToDraft(1, 'bob'), changedByBob]);
        expect(state.status).toBe('draft');
      });
    const edited = [...draft, submitted(1), returnedToDraft(1, 'bob'), changedByBob];
    given(edited)
      .when(c('ApproveProgram', { by: 'bob' }))
      .thenThrows(AutoPayErrors.notAllowed);
    // submitted again by the first submitter: the one who changed it still may not approve, another may
    given(edited)
      .when(c('SubmitProgram', { by: 'alice' }))
      .then([submitted(2)]);
    given([...edited, submitted(2)])
      .when(c('ApproveProgram', { by: 'bob' }))
      .thenThrows(AutoPayErrors.fourEyesChanged, { reason: 'four_eyes', changed: true });
    given([...edited, submitted(2)])
      .when(c('ApproveProgram', { by: 'carol' }))
      .thenState((state) => expect(state.status).toBe('approved'));
    // every kind of change counts, through lock and unlock or a rejection too
    const changes: [AutoPayCommand, AutoPayEvent][] = [
      [
        c('EditProgram', { name: 'Other', description: 'd', by: 'bob' }),
        { type: 'AutoPayProgramEdited', data: { name: 'Other', description: 'd', by: 'bob' } },
      ],
      [c('AddPayee', { payee: payee(3), by: 'bob' }), { type: 'AutoPayPayeeAdded', data: { ...payee(3), by: 'bob' } }],
      [c('RemovePayee', { payeeId: 'p2', by: 'bob' }), { type: 'AutoPayPayeeRemoved', data: { payeeId: 'p2', by: 'bob' } }],
      [
        c('ImportPayees', { payees: [payee(4)], replace: false, by: 'bob' }),
        { type: 'AutoPayPayeesImported', data: { payees: [payee(4)], replaced: false, by: 'bob' } },
      ],
    ];
    const detours: { commands: AutoPayCommand[]; events: AutoPayEvent[]; withdraws: boolean }[] = [
      { commands: [], events: [], withdraws: true },
      {
        commands: [c('LockProgram', { by: 'carol' }), c('UnlockProgram', { by: 'carol' })],
        events: [
          { type: 'AutoPayProgramLocked', data: { submission: 1, by: 'carol' } },
          { type: 'AutoPayProgramUnlocked', data: { by: 'carol' } },
        ],
        withdraws: false,
      },
      {
        commands: [c('RejectProgram', { by: 'carol' })],
        events: [{ type: 'AutoPayProgramRejected', data: { submission: 1, by: 'carol', cause: 'staff' } }],
        withdraws: false,
      },
    ];
    for (const detour of detours) {
      detour.commands.forEach((command, i) => {
        given([...draft, submitted(1), ...detour.events.slice(0, i)])
          .when(command)
          .then([detour.events[i]!]);
      });
      for (const [changeCommand, change] of changes) {
        const before = [...draft, submitted(1), ...detour.events];
        const decided = detour.withdraws ? [returnedToDraft(1, 'bob'), change] : [change];
        given(before).when(changeCommand).then(decided);
        given([...before, ...decided])
          .when(c('SubmitProgram', { by: 'alice' }))
          .thenState((state) => expect(state.status).toBe('submitted'));
        given([...before, ...decided, submitted(2)])
          .when(c('ApproveProgram', { by: 'bob' }))
          .thenThrows((error) => expect((error as DomainError).code, changeCommand.type).toBe('FORBIDDEN'));
      }
    }
    // changes before the first submission are the draft being written: its author may approve what another submitted
    const added: AutoPayEvent = { type: 'AutoPayPayeeAdded', data: { ...payee(3), by: 'bob' } };
    given(draft)
      .when(c('AddPayee', { payee: payee(3), by: 'bob' }))
      .then([added]);
    given([...draft, added])
      .when(c('SubmitProgram', { by: 'alice' }))
      .then([submitted(1)]);
    given([...draft, added, submitted(1)])
      .when(c('ApproveProgram', { by: 'bob' }))
      .thenState((state) => expect(state.status).toBe('approved'));
  });

  it('an approval that expires rejects the submission; a reminder or expiry of an older submission does nothing', () => {
    given([...draft, submitted(1)])
      .when(c('RemindApprovers', { submission: 1 }))
      .then([{ type: 'AutoPayApprovalReminded', data: { submission: 1, reminder: 1 } }]);
    const expired: AutoPayEvent[] = [
      ...draft,
      submitted(1),
      { type: 'AutoPayApprovalReminded', data: { submission: 1, reminder: 1 } },
      { type: 'AutoPayProgramRejected', data: { submission: 1, by: null, cause: 'expired' } },
    ];
    given(expired.slice(0, -1))
      .when(c('ExpireApproval', { submission: 1 }))
      .thenState((state) => {
        expect(state.status).toBe('rejected');
        expect(state.reminders).toBe(1);
      });
    given(expired)
      .when(c('SubmitProgram', { by: 'alice' }))
      .thenState((state) => expect(state.submission).toBe(2));
    given([...expired, submitted(2)])
      .when(c('ExpireApproval', { submission: 1 }))
      .thenNothingHappened();
  });

  it('retry pays only the failed payees again', () => {
    const payoutFailed: AutoPayEvent = { type: 'AutoPayPayeePayoutFailed', data: { payeeId: 'p2', failure: 'WALLET_INSUFFICIENT_FUNDS' } };
    const ran = [...draft, submitted(1), approved(1), payoutStarted(1, 1), payeePaid(1)];
    given(ran)
      .when(c('RecordPayeeFailed', { payeeId: 'p2', failure: 'WALLET_INSUFFICIENT_FUNDS' }))
      .then([payoutFailed]);
    given([...ran, payoutFailed])
      .when(c('FinishPayout', { submission: 1 }))
      .thenState((state) => expect(state.status).toBe('partially_failed'));
    const partlyFailed: AutoPayEvent[] = [
      ...ran,
      payoutFailed,
      { type: 'AutoPayPayoutFinished', data: { submission: 1, attempt: 1, paid: 1, failed: 1, status: 'partially_failed' } },
    ];
    const retry: AutoPayEvent = { type: 'AutoPayRetryRequested', data: { submission: 1, attempt: 2, by: 'alice' } };
    given(partlyFailed)
      .when(c('RetryPayout', { by: 'alice' }))
      .then([retry]);
    given([...partlyFailed, retry])
      .when(c('StartPayout', { submission: 1 }))
      .thenState((state) => {
        expect(state.status).toBe('paying');
        expect(state.attempt).toBe(2);
        expect(state.payees.p1!.payout).toBe('paid');
        expect(state.payees.p2!.payout).toBe('pending');
      });
    given([...partlyFailed, retry, payoutStarted(1, 2)])
      .when(c('RecordPayeePaid', { payeeId: 'p1', txid: 't9', address: 'a1', createdAddress: false }))
      .thenNothingHappened();
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
        let state = autopayDecider.evolve(autopayDecider.initialState(), {
          type: 'AutoPayProgramCreated',
          data: { programId: 'prog', name: 'n', description: 'd', createdBy: 'alice' },
        });
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
