/**
 * The console's passkey routes, routed to by handler.ts:
 *
 * - signed in (any role: an operator's own passkeys): `GET passkeys` (the list, registration),
 *   `POST passkeys/options` (registration options as JSON, the challenge bound to the session's
 *   CSRF token), `POST passkeys` (the browser's answer and a label), `POST passkeys/remove`;
 * - before a session: `POST sign-in/passkey-options` (sign-in options as JSON, the challenge bound
 *   to the pre-session's CSRF token) and `POST sign-in/passkey` (the answer: a session as a
 *   password sign-in makes, by the handler).
 *
 * Challenges are used up in the console's store (one answer accepted once, on any replica); every
 * sign-in attempt goes through the same throttle as passwords; every registration, removal and
 * sign-in is in the audit trail. Without a relying party (no SITE_PUBLIC_URL, or an IP address) no
 * ceremony is offered: the list and removal remain.
 */
import type { SignInThrottle } from '../auth/throttle.ts';
import { RateLimiter } from '../subscribers/rate-limit.ts';
import { registrationOptions, relyingParty, signInOptions, verifyRegistration, verifySignIn, type RelyingParty } from './passkey-ceremony.ts';
import { ANSWER_FIELD, passkeyLabel, registrationAnswer, signInAnswer, throttleAccount } from './passkey-forms.ts';
import { PasskeyExistsError, passkeyAuditValue } from './passkey-store.ts';
import { passkeysView } from './passkeys-view.ts';
import type { ConsoleStore, Operator } from './store.ts';
import type { ViewContext } from './views.ts';

export type PasskeyAnswer =
  | { kind: 'page'; status: number; body: string; retryAfter?: number }
  | { kind: 'json'; body: string }
  | { kind: 'redirect'; path: string }
  | { kind: 'signed-in'; operator: Operator }
  | { kind: 'not-found' };

export interface PasskeyRoutesOptions {
  store: ConsoleStore;
  throttle: SignInThrottle;
  publicUrl: URL | null;
  now: () => number;
  /** Records a change in the audit trail as `operator`'s. */
  audit(operator: Operator, action: string, target: string, before: unknown, after: unknown): Promise<void>;
}

export interface SignedInPasskeyRequest {
  method: 'GET' | 'POST';
  path: string;
  form: URLSearchParams;
  ctx: ViewContext;
  operator: Operator;
  /** The session's CSRF token (checked already): what a registration challenge is bound to. */
  csrf: string;
}

export interface SignInPasskeyRequest {
  method: 'GET' | 'POST';
  path: string;
  form: URLSearchParams;
  /** The pre-session's CSRF token (checked already): what a sign-in challenge is bound to. */
  csrf: string;
  address: string;
  problem(text: 'failed' | { slowDown: number }): string;
}

/** Whether a signed-in path is one of these routes. */
export const isPasskeysPath = (path: string) => path === 'passkeys' || path.startsWith('passkeys/');
export const isPasskeySignInPath = (path: string) => path.startsWith('sign-in/');

/** The relying party of the site's address, or null where passkeys cannot work (why: docs/console.md). */
export const passkeyRelyingParty = (publicUrl: URL | null): RelyingParty | null => (publicUrl ? relyingParty(publicUrl) : null);

/**
 * Sign-in options asked per client address and minute (per process). Anyone may ask, and each ask
 * stores a challenge for 5 minutes: this bounds what one address can make the store keep.
 */
export const SIGN_IN_OPTIONS_PER_MINUTE = 30;

export function createPasskeyRoutes(options: PasskeyRoutesOptions) {
  const { store, throttle, now } = options;
  const optionAsks = new RateLimiter({ limit: SIGN_IN_OPTIONS_PER_MINUTE, windowMs: 60_000 });
  const passkeys = store.passkeys();
  const rp = passkeyRelyingParty(options.publicUrl);

  async function screen(req: SignedInPasskeyRequest, status: number, problem: string | null): Promise<PasskeyAnswer> {
    return { kind: 'page', status, body: passkeysView(req.ctx, await passkeys.ofOperator(req.operator.id), rp !== null, problem) };
  }

  async function register(req: SignedInPasskeyRequest, party: RelyingParty): Promise<PasskeyAnswer> {
    const { i18n } = req.ctx;
    const label = passkeyLabel(req.form.get('label'));
    if (!label) return screen(req, 400, i18n.t('console.passkeys.labelProblem'));
    const answer = registrationAnswer(req.form.get(ANSWER_FIELD));
    const verified = answer ? await verifyRegistration(party, answer, (challenge) => passkeys.consumeChallenge(challenge, 'register', req.csrf, now())) : null;
    if (!verified) return screen(req, 400, i18n.t('console.passkeys.refused'));
    try {
      const added = await passkeys.add({ ...verified, operatorId: req.operator.id, label }, now());
      await options.audit(req.operator, 'operator.passkey.add', req.operator.id, null, passkeyAuditValue(added));
      return { kind: 'redirect', path: 'passkeys' };
    } catch (error) {
      if (!(error instanceof PasskeyExistsError)) throw error;
      return screen(req, 409, i18n.t('console.passkeys.refused'));
    }
  }

  return {
    /** A signed-in operator's passkey route. */
    async signedIn(req: SignedInPasskeyRequest): Promise<PasskeyAnswer> {
      if (req.path === 'passkeys' && req.method === 'GET') return screen(req, 200, null);
      if (req.method !== 'POST') return { kind: 'not-found' };
      if (req.path === 'passkeys/remove') {
        const removed = await passkeys.remove(req.operator.id, req.form.get('credential') ?? '');
        if (!removed) return { kind: 'not-found' };
        await options.audit(req.operator, 'operator.passkey.remove', req.operator.id, passkeyAuditValue(removed), null);
        return { kind: 'redirect', path: 'passkeys' };
      }
      if (!rp) return { kind: 'not-found' };
      if (req.path === 'passkeys/options') {
        const challenge = await passkeys.issueChallenge('register', req.csrf, now());
        return { kind: 'json', body: JSON.stringify(await registrationOptions(rp, req.operator, await passkeys.ofOperator(req.operator.id), challenge)) };
      }
      if (req.path === 'passkeys') return register(req, rp);
      return { kind: 'not-found' };
    },

    /** A passkey sign-in route (before a session). */
    async signIn(req: SignInPasskeyRequest): Promise<PasskeyAnswer> {
      if (!rp) return { kind: 'not-found' };
      if (req.method !== 'POST') return req.path === 'sign-in/passkey' ? { kind: 'redirect', path: 'sign-in' } : { kind: 'not-found' };
      if (req.path === 'sign-in/passkey-options') {
        if (!optionAsks.allow(req.address, now())) return { kind: 'page', status: 429, body: req.problem({ slowDown: 60 }), retryAfter: 60 };
        const challenge = await passkeys.issueChallenge('sign-in', req.csrf, now());
        return { kind: 'json', body: JSON.stringify(await signInOptions(rp, challenge)) };
      }
      if (req.path !== 'sign-in/passkey') return { kind: 'not-found' };
      const answer = signInAnswer(req.form.get(ANSWER_FIELD));
      const key = answer ? await passkeys.find(answer.id) : null;
      const operator = key ? await store.operator(key.operatorId) : null;
      const account = throttleAccount(operator?.email ?? null, answer?.id ?? '');
      const verdict = await throttle.check(account, req.address, now());
      if (!verdict.allowed) {
        const seconds = verdict.retryAfterSeconds;
        return { kind: 'page', status: 429, body: req.problem({ slowDown: seconds }), retryAfter: seconds };
      }
      // A user handle, when the authenticator gives one, names the operator the passkey was made for.
      const handle = answer?.response.userHandle;
      const sameOperator = !handle || (operator !== null && Buffer.from(handle, 'base64url').toString('utf8') === operator.id);
      const verified = answer && key && operator && sameOperator ? await verifySignIn(rp, answer, key, (challenge) => passkeys.consumeChallenge(challenge, 'sign-in', req.csrf, now())) : null;
      const counted = verified && key ? await passkeys.recordUse(key.credentialId, verified.newCounter, now()) : false;
      if (!counted || !operator || !key) {
        await throttle.recordFailure(account, req.address, now());
        return { kind: 'page', status: 401, body: req.problem('failed') };
      }
      await throttle.recordSuccess(account, req.address);
      await options.audit(operator, 'operator.passkey.sign-in', operator.id, null, passkeyAuditValue(key));
      return { kind: 'signed-in', operator };
    },

    /** Whether the sign-in screen offers a passkey. */
    offered: rp !== null,
  };
}
