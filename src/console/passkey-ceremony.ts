/**
 * The WebAuthn ceremonies of the console's passkeys, on @simplewebauthn/server (attestation and
 * assertion parsing, COSE keys, signature checks). Porchlight decides the relying party (from
 * SITE_PUBLIC_URL: its origin and host), issues and uses up the challenges (passkey-store.ts), and
 * turns every failure into a plain refusal: no library error reaches a browser.
 */
import { isIP } from 'node:net';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { Passkey } from './passkey-store.ts';

export interface RelyingParty {
  /** The host WebAuthn scopes credentials to. */
  id: string;
  /** The only origin whose answers are accepted. */
  origin: string;
  name: string;
}

const TRANSPORTS: readonly AuthenticatorTransport[] = ['ble', 'hybrid', 'internal', 'nfc', 'usb'];
const isTransport = (value: string): value is AuthenticatorTransport => (TRANSPORTS as readonly string[]).includes(value);

/** The relying party of a public URL, or null where WebAuthn cannot work: an IP address is no RP ID. */
export function relyingParty(publicUrl: URL, name = 'Porchlight'): RelyingParty | null {
  const host = publicUrl.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) !== 0) return null;
  return { id: host, origin: publicUrl.origin, name };
}

/** Our challenge (base64url, see PasskeyStore.issueChallenge) as bytes, so that the options carry exactly it. */
const challengeBytes = (challenge: string) => new Uint8Array(Buffer.from(challenge, 'base64url'));

export function registrationOptions(rp: RelyingParty, operator: { id: string; email: string }, existing: readonly Passkey[], challenge: string): Promise<PublicKeyCredentialCreationOptionsJSON> {
  return generateRegistrationOptions({
    rpID: rp.id,
    rpName: rp.name,
    userName: operator.email,
    userID: new TextEncoder().encode(operator.id),
    challenge: challengeBytes(challenge),
    attestationType: 'none',
    excludeCredentials: existing.map((key) => ({ id: key.credentialId, transports: key.transports.filter(isTransport) })),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
  });
}

export function signInOptions(rp: RelyingParty, challenge: string): Promise<PublicKeyCredentialRequestOptionsJSON> {
  // No allowCredentials: the operator is not known before the passkey names them (discoverable credentials).
  return generateAuthenticationOptions({ rpID: rp.id, challenge: challengeBytes(challenge), userVerification: 'preferred' });
}

/** Uses up the challenge the answer carries; true once (PasskeyStore.consumeChallenge). */
export type ChallengeCheck = (challenge: string) => Promise<boolean>;

export interface NewPasskey {
  credentialId: string;
  publicKey: string;
  counter: number;
  transports: string[];
}

/** A verified registration's credential, or null (any failure: wrong origin, RP, challenge, format). */
export async function verifyRegistration(rp: RelyingParty, response: RegistrationResponseJSON, useChallenge: ChallengeCheck): Promise<NewPasskey | null> {
  try {
    const result = await verifyRegistrationResponse({ response, expectedChallenge: useChallenge, expectedOrigin: rp.origin, expectedRPID: rp.id, requireUserVerification: false });
    if (!result.verified) return null;
    const { credential } = result.registrationInfo;
    return { credentialId: credential.id, publicKey: Buffer.from(credential.publicKey).toString('base64url'), counter: credential.counter, transports: response.response.transports ?? [] };
  } catch {
    return null;
  }
}

/** A verified sign-in's new signature counter, or null (any failure, a counter that did not go up included). */
export async function verifySignIn(rp: RelyingParty, response: AuthenticationResponseJSON, passkey: Passkey, useChallenge: ChallengeCheck): Promise<{ newCounter: number } | null> {
  if (response.id !== passkey.credentialId) return null;
  try {
    const result = await verifyAuthenticationResponse({
      response,
      expectedChallenge: useChallenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      credential: { id: passkey.credentialId, publicKey: new Uint8Array(Buffer.from(passkey.publicKey, 'base64url')), counter: passkey.counter, transports: passkey.transports.filter(isTransport) },
      requireUserVerification: false,
    });
    return result.verified ? { newCounter: result.authenticationInfo.newCounter } : null;
  } catch {
    return null;
  }
}
