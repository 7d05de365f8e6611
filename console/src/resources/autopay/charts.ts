/** A labelled value for a chart. */
export interface Point {
  readonly label: string;
  readonly value: number;
}

export interface Bar extends Point {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A decimal string of AXEL or a count as a number to draw; the chart's scale only, never a sum of money. */
export const chartNumber = (v: unknown): number | null => {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v.trim())) return Number(v);
  return null;
};

/**
 * The series a dashboard answer holds: every array of objects with a label-like field (label, date,
 * day, month, name, status, type) and a number-like field (value, count, total, amount).
 */
export const seriesIn = (answer: unknown): { name: string; points: Point[] }[] => {
  if (!isRecord(answer)) return [];
  const out: { name: string; points: Point[] }[] = [];
  for (const [name, value] of Object.entries(answer)) {
    if (!Array.isArray(value) || value.length === 0 || !value.every(isRecord)) continue;
    const points: Point[] = [];
    for (const row of value as Record<string, unknown>[]) {
      const label = ['label', 'date', 'day', 'month', 'name', 'status', 'type'].map((k) => row[k]).find((v) => typeof v === 'string' || typeof v === 'number');
      const number = ['value', 'count', 'total', 'amount'].map((k) => chartNumber(row[k])).find((v) => v !== null);
      if (label !== undefined && number !== undefined && number !== null) points.push({ label: String(label), value: number });
    }
    if (points.length > 0) out.push({ name, points });
  }
  return out;
};

/** The plain numbers of a dashboard answer (top level and one level down), for its figure cards. */
export const figuresIn = (answer: unknown): { key: string; value: string }[] => {
  if (!isRecord(answer)) return [];
  const out: { key: string; value: string }[] = [];
  const visit = (prefix: string, obj: Record<string, unknown>, depth: number) => {
    for (const [k, v] of Object.entries(obj)) {
      const key = prefix ? `${prefix}.${k}` : k;
      if (typeof v === 'number' || (typeof v === 'string' && chartNumber(v) !== null)) out.push({ key, value: String(v) });
      else if (typeof v === 'boolean') out.push({ key, value: v ? 'yes' : 'no' });
      else if (isRecord(v) && depth < 1) visit(key, v, depth + 1);
    }
  };
  visit('', answer, 0);
  return out;
};

/** Bars scaled into a width x height box (bottom-aligned, a gap between bars); zero or negative values draw flat. */
export const barLayout = (points: readonly Point[], width: number, height: number, gap = 8): Bar[] => {
  if (points.length === 0) return [];
  const max = Math.max(...points.map((p) => p.value), 0);
  const barWidth = Math.max(1, (width - gap * (points.length + 1)) / points.length);
  return points.map((p, i) => {
    const h = max > 0 && p.value > 0 ? (p.value / max) * height : 0;
    return { ...p, x: gap + i * (barWidth + gap), y: height - h, width: barWidth, height: h };
  });
};
