import type { Command } from '../shared/decider';

/** Who acts on a bound device: its owner, or staff holding `admin:cloudlocker:unbind`. */
export type DeviceActor = { readonly kind: 'owner'; readonly userId: string } | { readonly kind: 'staff'; readonly staffId: string };

export type CloudLockerCommand =
  | Command<'RegisterCloudLocker', { deviceId: string; serial: string; mac: string; publicKey: string; signature: string }>
  | Command<'CheckIn', { externalIp: string }>
  | Command<'ReportSize', { sizeUsed: number; sizeTotal: number }>
  | Command<'OpenClaim', { userId: string; serial: string; mac: string; code: string }>
  | Command<'ProveClaim', { code: string; signature: string; storageId: string }>
  | Command<'StaffBind', { serial: string; mac: string; ownerId: string; storageId: string }>
  | Command<'Unbind', { actor: DeviceActor }>
  | Command<'DeleteCloudLocker', { actor: DeviceActor; confirm: string }>;
