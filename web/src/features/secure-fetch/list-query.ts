/** The list's expiry filter: whole local days, from the start of the first to the end of the last. */
export const expiryRange = (from: string, until: string): { expiresFrom?: string; expiresAt?: string } => {
  const day = (value: string, end: boolean) => {
    const d = new Date(`${value}T${end ? '23:59:59.999' : '00:00:00.000'}`);
    return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
  };
  return { ...(from && day(from, false) ? { expiresFrom: day(from, false) } : {}), ...(until && day(until, true) ? { expiresAt: day(until, true) } : {}) };
};
