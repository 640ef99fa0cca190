/**
 * An operator in the console specs: the CLI's environment for one test Porchlight, the one-time
 * set-up link (choose a password, signed in) and the sign-in form.
 */
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect } from '@playwright/test';
import { ar } from '../../../src/site/i18n/messages/ar.ts';
import { en } from '../../../src/site/i18n/messages/en.ts';

export const OPERATOR_PASSWORD = 'a long enough passphrase';

/** What `npx porchlight operator|audit …` needs to reach the stores of a test Porchlight in `dir`. */
export function consoleCliEnv(dir: string, origin: string): Record<string, string> {
  return { SUBSCRIBERS_DB: join(dir, 'subscribers.db'), SITE_PUBLIC_URL: origin, CACHE_DIR: join(dir, 'cli-cache') };
}

/** Opens a set-up link and chooses the password; the operator lands signed in on the overview. */
export async function setUpOperator(page: Page, link: string, password = OPERATOR_PASSWORD): Promise<void> {
  await page.goto(link);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Save the password' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
}

export interface SignInLabels {
  email: string;
  password: string;
  submit: string;
}

/** The sign-in form's labels as a browser in `locale` sees them (these specs use Arabic or English). */
export function signInLabels(locale: string): SignInLabels {
  const words = locale === 'ar' ? ar : en;
  return { email: words['console.email'], password: words['console.password'], submit: words['console.signIn'] };
}

/** The ways every console screen is checked with axe: light, dark, and right to left. */
export const AXE_VARIANTS = [
  { name: 'light', scheme: 'light', locale: 'en-GB' },
  { name: 'dark', scheme: 'dark', locale: 'en-GB' },
  { name: 'right-to-left (Arabic)', scheme: 'light', locale: 'ar' },
] as const;

/** Fills and sends the console's sign-in form (the answer is the caller's to check). */
export async function signInOperator(page: Page, consoleUrl: string, email: string, options: { password?: string; labels?: SignInLabels } = {}): Promise<void> {
  const labels = options.labels ?? signInLabels('en');
  await page.goto(`${consoleUrl}sign-in`);
  await page.getByLabel(labels.email).fill(email);
  await page.getByLabel(labels.password).fill(options.password ?? OPERATOR_PASSWORD);
  await page.getByRole('button', { name: labels.submit, exact: true }).click();
}

/**
 * Signs an operator in afresh (cookies cleared): the first time with their one-time set-up link,
 * taken out of `setUpLinks` (it works once), then with the password; lands on the overview.
 */
export async function signInAs(page: Page, consoleUrl: string, email: string, setUpLinks: Map<string, string>): Promise<void> {
  await page.context().clearCookies();
  const link = setUpLinks.get(email);
  if (link) {
    setUpLinks.delete(email);
    await setUpOperator(page, link);
    return;
  }
  await signInOperator(page, consoleUrl, email);
  await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
}
