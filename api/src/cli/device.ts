import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { CloudLockerStandIn, DeviceCallError } from '../modules/devices/device-stand-in';

/*
 * The CloudLocker stand-in on the command line (a development tool, not the device's firmware):
 * registers its Ed25519 key, checks in and reports its sizes at the device's interval, and signs the
 * code the binding dialog shows. Its key is kept under DATA_DIR/devices/ so it stays the same device.
 */
const usage = `usage: npm run device -- --serial AXCL-0001 --mac aa:bb:cc:dd:ee:01 [options]
  --url URL            the product (default http://127.0.0.1:8080, or PUBLIC_URL)
  --claim CODE         sign the code shown in the binding dialog
  --size-total BYTES   the device's capacity (default 2 TB)
  --size-used BYTES    the bytes in use (default 0)
  --wifi-ssid NAME     Wi-Fi network to join (the stand-in accepts it and reports it joined)
  --wifi-password PW
  --once               register, check in, claim if asked, then exit
  --interval SECONDS   check-in interval (default: what the product asks)`;

const main = async () => {
  const { values } = parseArgs({
    options: {
      serial: { type: 'string' },
      mac: { type: 'string' },
      url: { type: 'string' },
      claim: { type: 'string' },
      'size-total': { type: 'string' },
      'size-used': { type: 'string' },
      'wifi-ssid': { type: 'string' },
      'wifi-password': { type: 'string' },
      once: { type: 'boolean' },
      interval: { type: 'string' },
    },
  });
  if (!values.serial || !values.mac) {
    console.error(usage);
    process.exit(64);
  }
  const baseUrl = values.url ?? process.env.PUBLIC_URL ?? `http://127.0.0.1:${process.env.PORT ?? 8080}`;
  const keyDir = path.join(process.env.DATA_DIR ?? './data', 'devices');
  const keyFile = path.join(keyDir, `${values.serial.replace(/[^A-Za-z0-9-]/g, '_')}.pem`);
  const privateKeyPem = existsSync(keyFile) ? readFileSync(keyFile, 'utf8') : undefined;
  const device = new CloudLockerStandIn({ baseUrl, serial: values.serial, mac: values.mac, privateKeyPem });
  if (!privateKeyPem) {
    mkdirSync(keyDir, { recursive: true });
    writeFileSync(keyFile, device.privateKeyPem, { mode: 0o600 });
  }
  if (values['wifi-ssid']) console.log(`Wi-Fi: joined "${values['wifi-ssid']}" (stand-in: credentials accepted, no radio)`);
  const sizes = { sizeTotal: Number(values['size-total'] ?? 2e12), sizeUsed: Number(values['size-used'] ?? 0) };

  const registered = await device.register();
  console.log(`CloudLocker stand-in ${device.serial} (${device.mac}) registered as ${registered.deviceId}`);
  let answer = await device.checkIn(sizes);
  console.log(`checked in: ${answer.bound ? `bound, storage ${answer.storageId}` : 'not bound'}`);
  if (values.claim) {
    answer = await device.claim(values.claim);
    console.log(`claimed with code ${values.claim}: bound, storage ${answer.storageId}`);
  }
  if (values.once) return;
  const everyMs = values.interval ? Number(values.interval) * 1000 : answer.checkInIntervalMs;
  console.log(`checking in every ${Math.round(everyMs / 1000)} s (Ctrl-C to stop)`);
  setInterval(() => {
    device.checkIn(sizes).then(
      (a) => console.log(`${new Date().toISOString()} checked in (${a.bound ? 'bound' : 'not bound'})`),
      (error: unknown) => console.error(`${new Date().toISOString()} check-in failed: ${error instanceof Error ? error.message : String(error)}`),
    );
  }, everyMs);
};

main().catch((error: unknown) => {
  console.error(error instanceof DeviceCallError ? error.message : error);
  process.exit(1);
});
