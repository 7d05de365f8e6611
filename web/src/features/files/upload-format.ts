import { formatBytes } from './format';

/** A duration as the reader's locale writes it, in its largest whole units: "45 sec", "3 min 5 sec", "1 hr 2 min". */
export const formatDuration = (seconds: number, tag = 'en-US'): string => {
  const total = Math.max(0, Math.ceil(seconds));
  const unit = (value: number, name: 'second' | 'minute' | 'hour') =>
    new Intl.NumberFormat(tag, { style: 'unit', unit: name, unitDisplay: 'short' }).format(value);
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const secs = total % 60;
  if (hours) return minutes ? `${unit(hours, 'hour')} ${unit(minutes, 'minute')}` : unit(hours, 'hour');
  if (minutes) return secs ? `${unit(minutes, 'minute')} ${unit(secs, 'second')}` : unit(minutes, 'minute');
  return unit(secs, 'second');
};

/** A speed in the units sizes are shown in, per second: "1.2 MB/s". */
export const formatRate = (bytesPerSecond: number, tag = 'en-US'): string => `${formatBytes(bytesPerSecond, tag)}/s`;
