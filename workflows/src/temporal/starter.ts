import type { EventRegistry } from '@axel/domain';
import { DurableSubscription, type EventStore, type RecordedEvent } from '@axel/platform';
import { EventRouter, readProcessCheckpoint } from '../runtime/event-routing';
import { WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError, type Client } from '@temporalio/client';
import type pg from 'pg';
import type { ProcessSettings } from '../catalog';
import type { Delivery, ProcessDefinition } from '../model/process';
import type { RuntimeLogger } from '../embedded/runtime';
import { PROCESS_TASK_QUEUE, PROCESS_WORKFLOW_TYPE, inputSignal, workflowIdOf, type ProcessWorkflowArgs } from './process-workflow';

export interface TemporalStarterOptions {
  readonly client: Client;
  readonly store: EventStore;
  /** Pool on the database holding `wf_checkpoints` (the workflow migrations). */
  readonly pool: pg.Pool;
  readonly definitions: readonly ProcessDefinition<any, any>[];
  readonly settings: ProcessSettings;
  readonly registry?: EventRegistry;
  readonly taskQueue?: string;
  readonly checkpointName?: string;
  readonly startFrom?: 'beginning' | 'end';
  readonly logger: RuntimeLogger;
}

/**
 * Maps store events to workflows: an event that starts a process is sent with `signalWithStart`
 * (one workflow per process id), any other event it reacts to with a plain signal. The checkpoint
 * is saved after each page; a page re-sent after a crash is harmless because the workflow drops
 * inputs whose id it has seen.
 */
export class TemporalProcessStarter {
  private subscription: DurableSubscription | undefined;
  private running = false;
  private readonly router: EventRouter;
  private readonly checkpointName: string;

  constructor(private readonly options: TemporalStarterOptions) {
    this.checkpointName = options.checkpointName ?? 'temporal-processes';
    this.router = new EventRouter(options.definitions, options.registry, (definition, event, error) =>
      options.logger.error(`${definition.type}.correlate failed; event skipped`, { eventId: event.id, error: String(error) }),
    );
  }

  async start(): Promise<void> {
    this.running = true;
    await this.subscribe();
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.subscription?.stop();
  }

  private async subscribe(): Promise<void> {
    const types = this.router.types;
    if (!types.length || !this.running) return;
    this.subscription = new DurableSubscription({
      store: this.options.store,
      from: () => this.readCheckpoint(),
      types,
      handler: {
        onBatch: async (events, checkpoint) => {
          for (const event of events) await this.route(event);
          await this.options.pool.query('update wf_checkpoints set position = greatest(position, $2), updated_at = clock_timestamp() where name = $1', [
            this.checkpointName,
            checkpoint,
          ]);
        },
      },
      onError: (error) => this.options.logger.error('temporal starter failed; resubscribing from the checkpoint', { error: String(error) }),
    });
    await this.subscription.start();
  }

  private readCheckpoint(): Promise<number> {
    return readProcessCheckpoint(this.options.pool, this.options.store, this.checkpointName, this.options.startFrom);
  }

  private async route(recorded: RecordedEvent): Promise<void> {
    for (const { definition, processId, event } of this.router.route(recorded)) {
      const delivery: Delivery = { input: { kind: 'event', event }, inputId: event.id, causationId: event.id };
      const workflowId = workflowIdOf(definition.type, processId);
      if (definition.startsOn.includes(event.type)) {
        const args: ProcessWorkflowArgs = {
          processType: definition.type,
          processId,
          correlationId: event.correlationId,
          settings: this.options.settings,
        };
        try {
          await this.options.client.workflow.signalWithStart(PROCESS_WORKFLOW_TYPE, {
            workflowId,
            taskQueue: this.options.taskQueue ?? PROCESS_TASK_QUEUE,
            args: [args],
            signal: inputSignal,
            signalArgs: [delivery],
            // a finished process is not started again by a redelivered or repeated event
            workflowIdReusePolicy: 'REJECT_DUPLICATE',
            memo: { processType: definition.type, processId },
          });
        } catch (error) {
          if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
        }
      } else {
        try {
          await this.options.client.workflow.getHandle(workflowId).signal(inputSignal, delivery);
        } catch (error) {
          if (!(error instanceof WorkflowNotFoundError)) throw error;
        }
      }
    }
  }
}
