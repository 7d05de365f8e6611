/** A browser and the system it runs on, in the words people use for them. */
export interface DeviceDescription {
  readonly browser: string | null;
  readonly system: string | null;
}

/**
 * Order matters: Edge, Opera and Samsung Internet also say "Chrome", Chrome also says "Safari",
 * and every iOS browser is Safari underneath but names itself (CriOS, FxiOS, EdgiOS).
 */
const BROWSERS: readonly (readonly [RegExp, string])[] = [
  [/\bEdg(?:e|A|iOS)?\//, 'Edge'],
  [/\bOPR\/|\bOpera\b/, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\bFirefox\/|\bFxiOS\//, 'Firefox'],
  [/\bChromium\//, 'Chromium'],
  [/\bChrome\/|\bCriOS\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
];

/** iPhone and iPad before macOS (they say "like Mac OS X"), Android before Linux. */
const SYSTEMS: readonly (readonly [RegExp, string])[] = [
  [/\biPhone\b/, 'iPhone'],
  [/\biPad\b/, 'iPad'],
  [/\bAndroid\b/, 'Android'],
  [/\bWindows\b/, 'Windows'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
];

const first = (rules: readonly (readonly [RegExp, string])[], text: string): string | null => rules.find(([pattern]) => pattern.test(text))?.[1] ?? null;

/** Names the browser and system of a User-Agent header; null for what it cannot tell. */
export const describeUserAgent = (userAgent: string | null | undefined): DeviceDescription => {
  const text = (userAgent ?? '').slice(0, 500);
  return { browser: first(BROWSERS, text), system: first(SYSTEMS, text) };
};
