/**
 * The console's one script, for the passkey forms only: served as a same-origin file
 * (`passkeys.js`, never inline) and allowed by the Content-Security-Policy of the two pages that
 * carry such a form, by its address alone. Everything else in the console has no script at all.
 *
 * A form marked `data-passkey="register|sign-in"` starts hidden (with a sentence saying passkeys
 * need JavaScript beside it); the script shows it where WebAuthn exists, and on submit asks the
 * form's `data-options` route for the ceremony's options (a same-origin POST carrying the form's
 * CSRF token), calls `navigator.credentials.create|get` with them (base64url by hand: no library),
 * puts the answer as JSON in the form's `response` field and submits the form itself, so the
 * answer goes the way of every console form (POST, redirect), and so does any refusal.
 */
import { ANSWER_FIELD } from './passkey-forms.ts';

/** Its route under the console's prefix. */
export const PASSKEY_SCRIPT_PATH = 'passkeys.js';

export const PASSKEY_SCRIPT = `'use strict';
(() => {
  const bytes = (text) => Uint8Array.from(atob(text.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));
  const text = (buffer) => btoa(String.fromCharCode(...new Uint8Array(buffer))).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '');
  const ids = (list) => (list || []).map((item) => ({ ...item, id: bytes(item.id) }));
  const ask = {
    register: async (o) => navigator.credentials.create({ publicKey: { ...o, challenge: bytes(o.challenge), user: { ...o.user, id: bytes(o.user.id) }, excludeCredentials: ids(o.excludeCredentials) } }),
    'sign-in': async (o) => navigator.credentials.get({ publicKey: { ...o, challenge: bytes(o.challenge), allowCredentials: ids(o.allowCredentials) } }),
  };
  function answer(credential) {
    const r = credential.response;
    const response = r.attestationObject
      ? { clientDataJSON: text(r.clientDataJSON), attestationObject: text(r.attestationObject), transports: r.getTransports ? r.getTransports() : [] }
      : { clientDataJSON: text(r.clientDataJSON), authenticatorData: text(r.authenticatorData), signature: text(r.signature), userHandle: r.userHandle ? text(r.userHandle) : undefined };
    return JSON.stringify({ id: credential.id, rawId: text(credential.rawId), type: credential.type, authenticatorAttachment: credential.authenticatorAttachment || undefined, response });
  }
  if (!window.PublicKeyCredential || !navigator.credentials) return;
  for (const form of document.querySelectorAll('form[data-passkey]')) {
    const kind = form.dataset.passkey;
    if (!ask[kind]) continue;
    const status = form.querySelector('[data-passkey-status]');
    form.hidden = false;
    for (const note of document.querySelectorAll('[data-passkey-needs-js]')) note.hidden = true;
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      status.textContent = '';
      try {
        const fields = new URLSearchParams(new FormData(form));
        fields.delete('${ANSWER_FIELD}');
        const reply = await fetch(form.dataset.options, { method: 'POST', body: fields, credentials: 'same-origin', headers: { accept: 'application/json' } });
        if (!reply.ok) throw new Error(String(reply.status));
        const credential = await ask[kind](await reply.json());
        if (!credential) throw new Error('none');
        form.elements['${ANSWER_FIELD}'].value = answer(credential);
        form.submit();
      } catch {
        status.textContent = form.dataset.failed;
      }
    });
  }
})();
`;

/**
 * The policy of a page with a passkey form: the console's own (`base`) plus this script, by its
 * address, and `connect-src` for the options route (same origin).
 */
export function passkeyPagePolicy(base: string, origin: string, scriptHref: string): string {
  return `${base}; script-src ${origin}${scriptHref}; connect-src 'self'`;
}
