import { readdirSync, readFileSync } from 'node:fs';
import { fmt } from './harness';

/** clock ticks per second of /proc's CPU times (USER_HZ) */
const TICK_MS = 1000 / 100;

/** The fields of a /proc `stat` line after the command name: field 14 of `man proc_pid_stat` is [11]. */
const fieldsOf = (stat: string): string[] => stat.slice(stat.lastIndexOf(')') + 2).split(' ');

/** Resident memory of a process in bytes (0 once it has gone). */
export const rssOf = (pid: number): number => {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
};

/** CPU ms of this process's children it has waited for (cutime + cstime): a client it ran, say. */
export const childrenCpuMs = (): number => {
  const f = fieldsOf(readFileSync('/proc/self/stat', 'utf8'));
  return (Number(f[13]) + Number(f[14])) * TICK_MS;
};

/** Thread names as the kernel knows them (Node names a worker thread after its `name`) -> how the figures call them. */
export type ThreadGroups = Readonly<Record<string, string>>;

/** CPU ms (user + system) of each group of threads of a process; threads of no group count as 'other threads'. */
export const threadCpu = (pid: number, groups: ThreadGroups): Map<string, number> => {
  const out = new Map<string, number>();
  let tasks: string[] = [];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const tid of tasks) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const group = groups[stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'))] ?? 'other threads';
      const f = fieldsOf(stat);
      out.set(group, (out.get(group) ?? 0) + (Number(f[11]) + Number(f[12])) * TICK_MS);
    } catch {
      // a thread that ended meanwhile
    }
  }
  return out;
};

/** CPU ms per MiB between two `threadCpu` samples: the total, and each group in words. */
export const cpuPerMiB = (before: Map<string, number>, after: Map<string, number>, mib: number, groups: ThreadGroups) => {
  const names = [...Object.values(groups), 'other threads'];
  const per = (g: string) => ((after.get(g) ?? 0) - (before.get(g) ?? 0)) / mib;
  return { total: names.reduce((n, g) => n + per(g), 0), byGroup: names.map((g) => `${g} ${fmt(per(g), 1)}`).join(', ') };
};
