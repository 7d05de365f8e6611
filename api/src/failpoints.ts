/**
 * Crash points for the crash tests: with NODE_ENV=test and AXEL_FAILPOINT naming the point, the
 * process kills itself there (SIGKILL: no handler, no cleanup, as a power cut would). Outside
 * tests nothing is read and nothing happens.
 */
export const failpoint = (name: string): void => {
  if (process.env.NODE_ENV === 'test' && process.env.AXEL_FAILPOINT === name) process.kill(process.pid, 'SIGKILL');
};

/**
 * Crash tests run the product as a child process and sometimes need its clock moved forward across
 * a restart (a window of minutes, without waiting minutes): AXEL_TEST_CLOCK_OFFSET_MS, honoured
 * only with NODE_ENV=test.
 */
export const testClockOffsetMs = (): number => {
  if (process.env.NODE_ENV !== 'test') return 0;
  const offset = Number(process.env.AXEL_TEST_CLOCK_OFFSET_MS ?? 0);
  return Number.isSafeInteger(offset) ? offset : 0;
};

/**
 * Pause points for the race tests: a test may hold a request at a named point (`holdAt`) while
 * another runs, to try every order of two calls. Nothing is held unless a test asked.
 */
const held = new Map<string, () => Promise<void>>();
export const pausepoint = async (name: string): Promise<void> => {
  if (held.size) await held.get(name)?.();
};
/** Test only: `wait` runs (and is awaited) whenever code reaches `name`, until the returned function is called. */
export const holdAt = (name: string, wait: () => Promise<void>): (() => void) => {
  held.set(name, wait);
  return () => {
    if (held.get(name) === wait) held.delete(name);
  };
};
