import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { describeUserAgent } from './user-agent';

const UA = {
  firefoxWindows: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0',
  chromeAndroid: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
  safariIphone: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
  safariMac: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
  edgeWindows: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
  chromeIpad: 'Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0.6778.73 Mobile/15E148 Safari/604.1',
  firefoxLinux: 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
  operaMac: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36 OPR/115.0.0.0',
  samsung: 'Mozilla/5.0 (Linux; Android 13; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/23.0 Chrome/115.0.0.0 Mobile Safari/537.36',
  chromebook: 'Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
};

describe('naming the browser and system of a user agent', () => {
  it.each([
    [UA.firefoxWindows, 'Firefox', 'Windows'],
    [UA.chromeAndroid, 'Chrome', 'Android'],
    [UA.safariIphone, 'Safari', 'iPhone'],
    [UA.safariMac, 'Safari', 'macOS'],
    [UA.edgeWindows, 'Edge', 'Windows'],
    [UA.chromeIpad, 'Chrome', 'iPad'],
    [UA.firefoxLinux, 'Firefox', 'Linux'],
    [UA.operaMac, 'Opera', 'macOS'],
    [UA.samsung, 'Samsung Internet', 'Android'],
    [UA.chromebook, 'Chrome', 'ChromeOS'],
  ])('%s', (ua, browser, system) => {
    expect(describeUserAgent(ua)).toEqual({ browser, system });
  });

  it('says nothing it cannot tell', () => {
    expect(describeUserAgent(null)).toEqual({ browser: null, system: null });
    expect(describeUserAgent('curl/8.5.0')).toEqual({ browser: null, system: null });
    expect(describeUserAgent('axel-test')).toEqual({ browser: null, system: null });
  });

  test.prop([fc.string({ maxLength: 2000 })])('answers only names it knows, whatever the header holds', (ua) => {
    const { browser, system } = describeUserAgent(ua);
    expect([null, 'Edge', 'Opera', 'Samsung Internet', 'Firefox', 'Chromium', 'Chrome', 'Safari']).toContain(browser);
    expect([null, 'iPhone', 'iPad', 'Android', 'Windows', 'ChromeOS', 'macOS', 'Linux']).toContain(system);
  });
});
