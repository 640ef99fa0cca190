import { createHash, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { registrationOptions, relyingParty, signInOptions, verifySignIn, type RelyingParty } from '../../src/console/passkey-ceremony.ts';
import type { Passkey } from '../../src/console/passkey-store.ts';

const b64u = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');
const sha256 = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest();

/** A software authenticator with one P-256 credential: what a browser's `navigator.credentials.get` answers. */
function authenticator() {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = publicKey.export({ format: 'jwk' });
  const x = Buffer.from(jwk.x ?? '', 'base64url');
  const y = Buffer.from(jwk.y ?? '', 'base64url');
  // COSE_Key {1: 2 (EC2), 3: -7 (ES256), -1: 1 (P-256), -2: x, -3: y}, CBOR by hand.
  const cose = Buffer.concat([Buffer.from([0xa5, 0x01, 0x02, 0x03, 0x26, 0x20, 0x01, 0x21, 0x58, 0x20]), x, Buffer.from([0x22, 0x58, 0x20]), y]);
  const credentialId = b64u(randomBytes(16));
  const passkey = (counter: number): Passkey => ({ credentialId, operatorId: 'op_1', label: '', publicKey: b64u(cose), counter, transports: ['internal'], createdAt: 0, lastUsedAt: null });
  function assert(options: { challenge: string; origin: string; rpId: string; counter: number }) {
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(options.counter);
    // Flags: user present (0x01) and verified (0x04).
    const authenticatorData = Buffer.concat([sha256(options.rpId), Buffer.from([0x05]), counter]);
    const clientDataJSON = Buffer.from(JSON.stringify({ type: 'webauthn.get', challenge: options.challenge, origin: options.origin, crossOrigin: false }));
    const signature = sign('sha256', Buffer.concat([authenticatorData, sha256(clientDataJSON)]), privateKey);
    return {
      id: credentialId,
      rawId: credentialId,
      type: 'public-key' as const,
      response: { authenticatorData: b64u(authenticatorData), clientDataJSON: b64u(clientDataJSON), signature: b64u(signature) },
      clientExtensionResults: {},
    };
  }
  return { passkey, assert };
}

const RP: RelyingParty = { id: 'localhost', origin: 'http://localhost:48123', name: 'Porchlight' };
const CHALLENGE = b64u(randomBytes(32));

describe('the relying party', () => {
  it('is the public URL\'s host and origin, and none on an IP address', () => {
    expect(relyingParty(new URL('https://status.example.com/some/path'))).toEqual({ id: 'status.example.com', origin: 'https://status.example.com', name: 'Porchlight' });
    expect(relyingParty(new URL('http://localhost:48123/'))).toEqual({ id: 'localhost', origin: 'http://localhost:48123', name: 'Porchlight' });
    expect(relyingParty(new URL('http://127.0.0.1:48123/'))).toBeNull();
    expect(relyingParty(new URL('http://[::1]:48123/'))).toBeNull();
  });
});

describe('the options', () => {
  it('carry our challenge and RP, and exclude the operator\'s registered passkeys', async () => {
    const signIn = await signInOptions(RP, CHALLENGE);
    expect(signIn).toMatchObject({ challenge: CHALLENGE, rpId: 'localhost' });
    expect(signIn.allowCredentials ?? []).toEqual([]);
    const { passkey } = authenticator();
    const register = await registrationOptions(RP, { id: 'op_1', email: 'ada@example.com' }, [passkey(0)], CHALLENGE);
    expect(register).toMatchObject({ challenge: CHALLENGE, rp: { id: 'localhost', name: 'Porchlight' }, user: { name: 'ada@example.com' }, attestation: 'none' });
    expect(register.excludeCredentials).toEqual([{ id: passkey(0).credentialId, type: 'public-key', transports: ['internal'] }]);
  });
});

describe('a passkey sign-in', () => {
  const used: string[] = [];
  const useChallenge = async (challenge: string) => {
    used.push(challenge);
    return challenge === CHALLENGE;
  };

  it('is accepted from our origin with our challenge and a higher counter', async () => {
    const { passkey, assert } = authenticator();
    used.length = 0;
    expect(await verifySignIn(RP, assert({ challenge: CHALLENGE, origin: RP.origin, rpId: RP.id, counter: 7 }), passkey(3), useChallenge)).toEqual({ newCounter: 7 });
    expect(used).toEqual([CHALLENGE]);
  });

  it('is refused from another origin, for another RP, with another challenge, a stale counter, a forged signature or another credential', async () => {
    const { passkey, assert } = authenticator();
    const good = { challenge: CHALLENGE, origin: RP.origin, rpId: RP.id, counter: 7 };
    expect(await verifySignIn(RP, assert({ ...good, origin: 'http://localhost:48124' }), passkey(3), useChallenge)).toBeNull();
    expect(await verifySignIn(RP, assert({ ...good, origin: 'https://evil.example' }), passkey(3), useChallenge)).toBeNull();
    expect(await verifySignIn(RP, assert({ ...good, rpId: 'evil.example' }), passkey(3), useChallenge)).toBeNull();
    expect(await verifySignIn(RP, assert({ ...good, challenge: b64u(randomBytes(32)) }), passkey(3), useChallenge)).toBeNull();
    expect(await verifySignIn(RP, assert({ ...good, counter: 3 }), passkey(3), useChallenge)).toBeNull();
    const forged = assert(good);
    forged.response.signature = assert({ ...good, counter: 8 }).response.signature;
    expect(await verifySignIn(RP, forged, passkey(3), useChallenge)).toBeNull();
    const other = authenticator();
    expect(await verifySignIn(RP, assert(good), other.passkey(3), useChallenge)).toBeNull();
    // The same key under the right id but another credential's public key: refused by the signature.
    expect(await verifySignIn(RP, assert(good), { ...other.passkey(3), credentialId: passkey(3).credentialId }, useChallenge)).toBeNull();
    // And the untouched answer passes, so each refusal above is the one change it makes.
    expect(await verifySignIn(RP, assert(good), passkey(3), useChallenge)).toEqual({ newCounter: 7 });
  });
});
