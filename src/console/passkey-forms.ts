/**
 * What the passkey forms carry, read strictly: the label an operator gives a passkey, and the
 * browser's answer to a ceremony (the JSON the console's script puts in the form's `response`
 * field). Anything malformed is null, a plain refusal; the ceremony checks the rest.
 */
import { z } from 'zod';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';

/** The field the script fills with the browser's answer. */
export const ANSWER_FIELD = 'response';
export const LABEL_MAX = 60;
/** A browser's answer is a few hundred bytes; an attestation with a certificate chain a few KB. */
const ANSWER_MAX = 16 * 1024;

/** A passkey's label: trimmed, 1 to LABEL_MAX characters, no control characters; else null. */
export function passkeyLabel(value: string | null): string | null {
  const label = (value ?? '').normalize('NFC').trim();
  if (!label || [...label].length > LABEL_MAX || /\p{Cc}/u.test(label)) return null;
  return label;
}

const base64url = z.string().min(1).max(ANSWER_MAX).regex(/^[A-Za-z0-9_-]+$/);

/** What every WebAuthn answer carries around its `response`. */
const credential = {
  id: base64url,
  rawId: base64url,
  type: z.literal('public-key'),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
};

const registration = z.object({
  ...credential,
  response: z.object({
    clientDataJSON: base64url,
    attestationObject: base64url,
    transports: z.array(z.string().max(20)).max(10).optional(),
  }),
});

const signIn = z.object({
  ...credential,
  response: z.object({
    clientDataJSON: base64url,
    authenticatorData: base64url,
    signature: base64url,
    userHandle: base64url.optional(),
  }),
});

const TRANSPORTS = ['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb'] as const;
type Transport = (typeof TRANSPORTS)[number];
const isTransport = (value: string): value is Transport => (TRANSPORTS as readonly string[]).includes(value);

function json(text: string | null): unknown {
  if (!text || text.length > ANSWER_MAX) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/** A registration answer (`navigator.credentials.create`), or null. Extension results are dropped: none is asked for. */
export function registrationAnswer(text: string | null): RegistrationResponseJSON | null {
  const parsed = registration.safeParse(json(text));
  if (!parsed.success) return null;
  const { response, ...rest } = parsed.data;
  return { ...rest, clientExtensionResults: {}, response: { clientDataJSON: response.clientDataJSON, attestationObject: response.attestationObject, transports: (response.transports ?? []).filter(isTransport) } };
}

/** A sign-in answer (`navigator.credentials.get`), or null. */
export function signInAnswer(text: string | null): AuthenticationResponseJSON | null {
  const parsed = signIn.safeParse(json(text));
  if (!parsed.success) return null;
  return { ...parsed.data, clientExtensionResults: {} };
}

/**
 * The account a passkey sign-in counts against in the sign-in throttle: the operator's address
 * when the passkey is known (the same key as their password sign-ins), else the credential the
 * answer claims (so an unknown one never delays anyone else's account).
 */
export function throttleAccount(operatorEmail: string | null, credentialId: string): string {
  return operatorEmail ?? `passkey:${credentialId.slice(0, 100)}`;
}
