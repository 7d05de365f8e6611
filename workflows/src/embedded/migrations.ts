import type { Migration } from '@axel/platform';

/**
 * Tables of the embedded process runtime. graphile-worker installs and upgrades its own schema
 * (`graphile_worker`) when the runtime starts; these tables hold what the process model needs.
 */
export const workflowMigrations: Migration[] = [
  {
    id: 'workflows-001-processes',
    sql: `
create table wf_processes (
  process_type text not null,
  process_id text not null,
  status text not null check (status in ('running', 'completed', 'dead_letter')),
  state jsonb not null,
  timers jsonb not null default '{}',
  done boolean not null default false,
  inputs int not null default 0,
  next_timer_at timestamptz,
  correlation_id text,
  -- a command failed and a retry job is scheduled: new commands wait for that job
  failing boolean not null default false,
  last_error text,
  last_error_at timestamptz,
  created_at timestamptz not null default clock_timestamp(),
  updated_at timestamptz not null default clock_timestamp(),
  completed_at timestamptz,
  primary key (process_type, process_id)
);
create index wf_processes_status on wf_processes (status, updated_at desc);
create index wf_processes_next_timer on wf_processes (next_timer_at) where next_timer_at is not null;

-- every input a process received, in order: its history, the dedupe of redeliveries, and the
-- inputs parked while it is dead-lettered
create table wf_inputs (
  seq bigint generated always as identity primary key,
  process_type text not null,
  process_id text not null,
  input_id text not null,
  kind text not null,
  delivery jsonb not null,
  outcome text not null check (outcome in ('applied', 'ignored', 'parked')),
  received_at timestamptz not null default clock_timestamp(),
  unique (process_type, process_id, input_id)
);
create index wf_inputs_parked on wf_inputs (process_type, process_id, seq) where outcome = 'parked';

-- the outbox: commands decided by a process, dispatched in order, at least once
create table wf_commands (
  seq bigint generated always as identity primary key,
  process_type text not null,
  process_id text not null,
  input_id text not null,
  command_index int not null,
  command jsonb not null,
  idempotency_key text not null unique,
  causation_id text,
  correlation_id text,
  attempts int not null default 0,
  last_error text,
  dispatched_at timestamptz,
  position bigint,
  created_at timestamptz not null default clock_timestamp()
);
create index wf_commands_pending on wf_commands (process_type, process_id, seq) where dispatched_at is null;

create table wf_checkpoints (
  name text primary key,
  position bigint not null,
  updated_at timestamptz not null default clock_timestamp()
);

-- runtime instances and their graphile-worker ids: jobs locked by a dead instance are released
create table wf_nodes (
  node_id text primary key,
  worker_ids text[] not null default '{}',
  started_at timestamptz not null default clock_timestamp(),
  heartbeat_at timestamptz not null default clock_timestamp()
);
`,
  },
];
