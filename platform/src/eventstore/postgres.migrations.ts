import type { Migration } from '../postgres/migrations';

/**
 * Global positions are `xid * 2^20 + n`: the transaction id that wrote the event, then its index
 * within that transaction. Positions therefore follow transaction-id order, and a reader that
 * only reads below `pg_snapshot_xmin` (the oldest transaction still in flight) can never see a
 * lower position appear after a higher one: every transaction that could still commit has an id
 * at or above that bound.
 */
export const POSITION_SHIFT = 1_048_576;

export const eventStoreMigrations: Migration[] = [
  {
    id: 'platform-001-event-store',
    sql: `
create table es_events (
  position bigint primary key,
  stream_name text not null,
  stream_revision bigint not null,
  event_id uuid not null,
  event_type text not null,
  schema_version int not null,
  data jsonb not null,
  metadata jsonb not null,
  recorded_at timestamptz not null default clock_timestamp(),
  constraint es_events_stream_revision unique (stream_name, stream_revision),
  constraint es_events_event_id unique (event_id)
);

create function es_append(
  p_stream text, p_expected_kind text, p_expected_revision bigint,
  p_ids uuid[], p_types text[], p_versions int[], p_data jsonb[], p_metadata jsonb[]
) returns table (next_revision bigint, last_position bigint, duplicate boolean)
language plpgsql as $$
declare
  v_count int := cardinality(p_ids);
  v_current bigint;
  v_base bigint;
  v_matching int;
begin
  if exists (select 1 from es_events e where e.event_id = p_ids[1]) then
    select count(*) into v_matching from es_events e
      where e.event_id = any(p_ids) and e.stream_name = p_stream;
    if v_matching <> v_count then
      raise exception using errcode = 'AX002', message = 'idempotency_conflict';
    end if;
    return query select max(e.stream_revision), max(e.position), true
      from es_events e where e.event_id = any(p_ids);
    return;
  end if;

  select max(e.stream_revision) into v_current from es_events e where e.stream_name = p_stream;
  v_current := coalesce(v_current, -1);
  if (p_expected_kind = 'no_stream' and v_current <> -1)
     or (p_expected_kind = 'stream_exists' and v_current = -1)
     or (p_expected_kind = 'exact' and v_current <> p_expected_revision) then
    raise exception using errcode = 'AX001', message = 'wrong_expected_revision', detail = v_current::text;
  end if;

  v_base := pg_current_xact_id()::text::bigint * ${POSITION_SHIFT};
  -- several appends in one transaction continue after the previous one
  select coalesce(max(e.position), v_base) into v_base from es_events e
    where e.position > v_base and e.position < v_base + ${POSITION_SHIFT};

  insert into es_events (position, stream_name, stream_revision, event_id, event_type, schema_version, data, metadata)
  select v_base + i, p_stream, v_current + i, p_ids[i], p_types[i], p_versions[i], p_data[i], p_metadata[i]
  from generate_series(1, v_count) as i;

  return query select v_current + v_count, v_base + v_count, false;
end
$$;
`,
  },
  {
    id: 'platform-002-append-idempotency-any-id',
    sql: `
create or replace function es_append(
  p_stream text, p_expected_kind text, p_expected_revision bigint,
  p_ids uuid[], p_types text[], p_versions int[], p_data jsonb[], p_metadata jsonb[]
) returns table (next_revision bigint, last_position bigint, duplicate boolean)
language plpgsql as $$
declare
  v_count int := cardinality(p_ids);
  v_current bigint;
  v_base bigint;
  v_matching int;
begin
  -- any known id makes this a retry (or a conflict): never insert part of a batch twice
  if exists (select 1 from es_events e where e.event_id = any(p_ids)) then
    select count(*) into v_matching from es_events e
      where e.event_id = any(p_ids) and e.stream_name = p_stream;
    if v_matching <> v_count then
      raise exception using errcode = 'AX002', message = 'idempotency_conflict';
    end if;
    return query select max(e.stream_revision), max(e.position), true
      from es_events e where e.event_id = any(p_ids);
    return;
  end if;

  select max(e.stream_revision) into v_current from es_events e where e.stream_name = p_stream;
  v_current := coalesce(v_current, -1);
  if (p_expected_kind = 'no_stream' and v_current <> -1)
     or (p_expected_kind = 'stream_exists' and v_current = -1)
     or (p_expected_kind = 'exact' and v_current <> p_expected_revision) then
    raise exception using errcode = 'AX001', message = 'wrong_expected_revision', detail = v_current::text;
  end if;

  v_base := pg_current_xact_id()::text::bigint * ${POSITION_SHIFT};
  -- several appends in one transaction continue after the previous one
  select coalesce(max(e.position), v_base) into v_base from es_events e
    where e.position > v_base and e.position < v_base + ${POSITION_SHIFT};

  insert into es_events (position, stream_name, stream_revision, event_id, event_type, schema_version, data, metadata)
  select v_base + i, p_stream, v_current + i, p_ids[i], p_types[i], p_versions[i], p_data[i], p_metadata[i]
  from generate_series(1, v_count) as i;

  return query select v_current + v_count, v_base + v_count, false;
end
$$;
`,
  },
];
