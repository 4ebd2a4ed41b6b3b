import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser } from 'puppeteer-core';
import { VENDOR_HOST } from './fixture-server';

export const CHROME_PATH = process.env.CHROME_PATH || '/usr/bin/chromium';
export const chromiumFound = (): boolean => existsSync(CHROME_PATH);

/** One headless Chromium with a fresh profile; `close` removes the profile too. */
export async function launchChromium(): Promise<{ browser: Browser; close: () => Promise<void> }> {
  const profile = mkdtempSync(join(tmpdir(), 'pss-chromium-'));
  const browser = await puppeteer.launch({
    executablePath: CHROME_PATH,
    headless: true,
    userDataDir: profile,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      `--host-resolver-rules=MAP ${VENDOR_HOST} 127.0.0.1`,
      // Reporting API (report-to) reports within a second, not Chromium's minute: a test waits 20 s at most.
      '--short-reporting-delay',
      // The TLS fronts of tests that need a secure page (Reporting-Endpoints is read on HTTPS only) use a throwaway certificate.
      '--ignore-certificate-errors',
    ],
  });
  return {
    browser,
    close: async () => {
      await browser.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
