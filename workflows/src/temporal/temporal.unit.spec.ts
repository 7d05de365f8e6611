import { fileURLToPath } from 'node:url';
import { DomainError } from '@axel/domain';
import { ApplicationFailure } from '@temporalio/common';
import { MockActivityEnvironment } from '@temporalio/testing';
import { bundleWorkflowCode } from '@temporalio/worker';
import { describe, expect, it } from 'vitest';
import type { ProcessCommand } from '../model/process';
import type { DispatchContext } from '../runtime/port';
import { createActivities } from './activities';
import { productWorkflowsPath } from './worker';

const silent = { trace: () => undefined, debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined, log: () => undefined };

describe('Temporal workflow code', () => {
  it('bundles: the product workflow imports nothing non-deterministic', async () => {
    const bundle = await bundleWorkflowCode({ workflowsPath: productWorkflowsPath, logger: silent });
    expect(bundle.code).toContain('processWorkflow');
    expect(bundle.code).toContain('account-deletion');
  }, 60_000);

  it('bundles the contract-suite workflows too', async () => {
    const workflowsPath = fileURLToPath(new URL('../testing/temporal-test-workflows.ts', import.meta.url));
    const bundle = await bundleWorkflowCode({ workflowsPath, logger: silent });
    expect(bundle.code).toContain('probe-approval');
  }, 60_000);

  it('refuses workflow code that imports a Node module', async () => {
    const workflowsPath = fileURLToPath(new URL('./fixtures/nondeterministic-workflow.ts', import.meta.url));
    const errors: string[] = [];
    const logger = { ...silent, error: (message: string) => void errors.push(message) };
    await expect(bundleWorkflowCode({ workflowsPath, logger })).rejects.toThrow(/Webpack finished with errors|disallowed modules/);
    expect(errors.join('\n')).toContain('node:crypto');
  }, 60_000);
});

describe('process activities', () => {
  const planned = {
    command: { aggregate: 'user', aggregateId: 'u-1', type: 'PurgeAccount', data: {} } satisfies ProcessCommand,
    index: 0,
    inputId: 'timer:1:purge',
    idempotencyKey: 'account-deletion:u-1:timer:1:purge:0',
    causationId: 'ev-deleted',
  };
  const input = { processType: 'account-deletion', processId: 'u-1', planned, correlationId: 'corr-1' };
  const now = new Date('2026-05-01T00:00:00.000Z');

  it('dispatches the command with the process as actor and the deterministic idempotency key', async () => {
    const seen: [ProcessCommand, DispatchContext][] = [];
    const activities = createActivities({
      dispatcher: { dispatch: async (command, ctx) => (seen.push([command, ctx]), { position: 42 }) },
      now: () => now,
    });
    const result = await new MockActivityEnvironment().run(activities.dispatchCommand, input);
    expect(result).toEqual({ position: 42 });
    expect(seen).toEqual([
      [
        planned.command,
        expect.objectContaining({
          actorKind: 'process',
          actorId: 'account-deletion:u-1',
          causationId: 'ev-deleted',
          correlationId: 'corr-1',
          idempotencyKey: planned.idempotencyKey,
          now,
        }),
      ],
    ]);
  });

  it('turns a domain error into a non-retryable failure (the workflow dead-letters at once)', async () => {
    const activities = createActivities({
      dispatcher: { dispatch: async () => Promise.reject(new DomainError({ code: 'USER_DELETED', status: 410, message: 'gone' })) },
    });
    const failure = await new MockActivityEnvironment().run(activities.dispatchCommand, input).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ApplicationFailure);
    expect(failure).toMatchObject({ nonRetryable: true, type: 'DomainError', message: 'gone' });
  });

  it('lets other errors through so Temporal retries them', async () => {
    const activities = createActivities({ dispatcher: { dispatch: async () => Promise.reject(new Error('connection reset')) } });
    const failure = await new MockActivityEnvironment().run(activities.dispatchCommand, input).catch((e: unknown) => e);
    expect(failure).not.toBeInstanceOf(ApplicationFailure);
    expect((failure as Error).message).toBe('connection reset');
  });
});
