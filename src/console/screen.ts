/**
 * What a console screen kept in its own module is given and answers, so the handler only routes
 * to it: the signed-in operator's request (view context, role, form) and the handler's tools (the
 * API client, the audit trail). An answer is a page or a redirect after a POST.
 */
import { ApiError, type ApiClient } from '../api/index.ts';
import type { Role } from './roles.ts';
import type { ViewContext } from './views.ts';

export interface ScreenRequest {
  method: 'GET' | 'POST';
  form: URLSearchParams;
  ctx: ViewContext;
  role: Role;
}

/** `download`: a CSV file of that name instead of a page. */
export type ScreenAnswer = { status: number; body: string; download?: string } | { redirect: string } | { refused: 'forbidden' | 'not-found' };

export interface ScreenTools {
  client: ApiClient;
  /** Records a change: what, on which target, its value before and after. */
  audit(action: string, target: string, before: unknown, after: unknown): Promise<void>;
  /** SITE_PUBLIC_URL's host name, for the TLS gate's verdict on a page's custom domain. */
  publicHostName: string | null;
}

export const page = (status: number, body: string): ScreenAnswer => ({ status, body });

/** Whether a destructive form carries the page's slug, typed (deleting a page, removing its audience). */
export const slugTyped = (form: URLSearchParams, slug: string): boolean => (form.get('confirmSlug') ?? '').trim() === slug;

/** An API refusal's first line, for the form's problem line; anything else is thrown on. */
export function apiProblem(error: unknown): string {
  if (!(error instanceof ApiError)) throw error;
  return (error.message.split('\n')[0] ?? '').slice(0, 300);
}
