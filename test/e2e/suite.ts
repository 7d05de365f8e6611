import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { MemoryBytes } from '../../api/src/modules/files/storage.testing';
import { accountHelpers } from '../../api/src/testing/accounts';
import { startTestApp, type TestApp } from '../../api/src/testing/harness';
import { launchBrowser } from './browser';
import { consoleSignIn, staffHelpers, submitSignIn, webSignIn } from './helpers';

interface E2eSuiteOptions {
  /** Environment of the product, on top of the test defaults. */
  env?: Record<string, string>;
  /** A super_admin the product creates at start (ADMIN_EMAIL, ADMIN_PASSWORD). */
  admin?: { email: string; password: string };
  /** A temporary folder (this name prefix) for files the browser picks, removed after the tests. */
  tempDir?: string;
  /** The product keeps file bytes in memory (`bytes`) instead of running the byte pipeline. */
  memoryBytes?: boolean;
}

/**
 * A browser test file's setup: before its tests the product starts with the web app and the
 * console served, and a headless Chromium is launched; after them both stop. Answers getters of
 * both, the account steps of the API tests, and sign-in steps bound to this product.
 */
export function e2eSuite(options: E2eSuiteOptions & { memoryBytes: true }): ReturnType<typeof suite> & { bytes: MemoryBytes };
export function e2eSuite(options?: E2eSuiteOptions): ReturnType<typeof suite>;
export function e2eSuite(options: E2eSuiteOptions = {}) {
  return suite(options);
}

const suite = (options: E2eSuiteOptions) => {
  const bytes = options.memoryBytes ? new MemoryBytes() : undefined;
  let running: TestApp | undefined;
  let chromium: Browser | undefined;
  let folder: string | undefined;
  beforeAll(async () => {
    if (options.tempDir) folder = mkdtempSync(path.join(os.tmpdir(), options.tempDir));
    const admin: Record<string, string> = options.admin ? { ADMIN_EMAIL: options.admin.email, ADMIN_PASSWORD: options.admin.password } : {};
    running = await startTestApp({ serveUi: true, env: { ...admin, ...options.env }, bytes: bytes && { uploads: bytes, content: bytes } });
    chromium = await launchBrowser();
  });
  afterAll(async () => {
    await chromium?.close();
    await running?.stop();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  const app = () => {
    if (!running) throw new Error('the product is not running: read it inside a test or hook');
    return running;
  };
  const browser = () => {
    if (!chromium) throw new Error('the browser is not running: read it inside a test or hook');
    return chromium;
  };
  const dir = () => {
    if (!folder) throw new Error('no temporary folder: give e2eSuite a tempDir');
    return folder;
  };
  const accounts = accountHelpers(app);
  const { signedIn, createAccount } = staffHelpers(() => app().url, accounts.PASSWORD);
  /** A new page in a fresh browser context (American English unless told otherwise). */
  const newPage = async (context: BrowserContextOptions = {}) => (await browser().newContext({ locale: 'en-US', ...context })).newPage();

  return {
    app,
    browser,
    dir,
    bytes,
    ...accounts,
    signedIn,
    createAccount,
    newPage,
    /** The web app's sign-in form, submitted; nothing waited for. */
    submitSignIn: (page: Page, email: string, password = accounts.PASSWORD) => submitSignIn(page, app().url, email, password),
    /** Signed in to the web app through its form, on the welcome page. */
    webSignIn: (page: Page, email: string, password = accounts.PASSWORD) => webSignIn(page, app().url, email, password),
    /** Signed in to the console through its login page, on its dashboard. */
    consoleSignIn: (page: Page, email: string, password = accounts.PASSWORD) => consoleSignIn(page, app().url, email, password),
    /** A new page (see `newPage`) signed in to the web app. */
    signedInPage: async (email: string, context: BrowserContextOptions = {}) => {
      const page = await newPage(context);
      await webSignIn(page, app().url, email, accounts.PASSWORD);
      return page;
    },
  };
};
