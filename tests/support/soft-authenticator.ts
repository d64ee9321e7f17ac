// A software passkey authenticator for tests (decision 0066): an ES256 key made with node:crypto, the "none"
// attestation a browser's platform authenticator sends, and assertions signed over authenticatorData ‖
// SHA-256(clientDataJSON), each with the signature counter it is told (so tests can replay or roll it back).
import { createHash, generateKeyPairSync, randomBytes, sign } from 'node:crypto'
import { isoCBOR } from '@simplewebauthn/server/helpers'

const b64url = (bytes: Uint8Array | Buffer) => Buffer.from(bytes).toString('base64url')
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest()
const UP = 0x01
const UV = 0x04
const AT = 0x40

export interface SoftAuthenticator {
  credentialId: string
  /** Registration answer for options from generateRegistrationOptions. */
  register(options: { challenge: string; rp: { id?: string } }, origin: string): Record<string, unknown>
  /** Assertion for options from generateAuthenticationOptions, with this counter (and user handle). */
  assert(
    options: { challenge: string; rpId?: string },
    origin: string,
    counter: number,
    userHandle?: string,
  ): Record<string, unknown>
}

export function softAuthenticator(): SoftAuthenticator {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' })
  const jwk = publicKey.export({ format: 'jwk' })
  const credentialId = randomBytes(16)
  const cose = new Map<number, number | Uint8Array>([
    [1, 2], // kty: EC2
    [3, -7], // alg: ES256
    [-1, 1], // crv: P-256
    [-2, new Uint8Array(Buffer.from(jwk.x!, 'base64url'))],
    [-3, new Uint8Array(Buffer.from(jwk.y!, 'base64url'))],
  ])
  const counterBytes = (counter: number) => {
    const bytes = Buffer.alloc(4)
    bytes.writeUInt32BE(counter)
    return bytes
  }
  const clientData = (type: string, challenge: string, origin: string) =>
    Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }))

  return {
    credentialId: b64url(credentialId),
    register(options, origin) {
      const idLength = Buffer.alloc(2)
      idLength.writeUInt16BE(credentialId.length)
      const authData = Buffer.concat([
        sha256(options.rp.id ?? ''),
        Buffer.from([UP | UV | AT]),
        counterBytes(0),
        Buffer.alloc(16), // AAGUID
        idLength,
        credentialId,
        Buffer.from(isoCBOR.encode(cose)),
      ])
      const attestation = isoCBOR.encode(
        new Map<string, unknown>([
          ['fmt', 'none'],
          ['attStmt', new Map()],
          ['authData', new Uint8Array(authData)],
        ]) as never,
      )
      return {
        id: b64url(credentialId),
        rawId: b64url(credentialId),
        type: 'public-key',
        response: {
          clientDataJSON: b64url(clientData('webauthn.create', options.challenge, origin)),
          attestationObject: b64url(attestation),
          transports: ['internal'],
        },
        clientExtensionResults: {},
      }
    },
    assert(options, origin, counter, userHandle) {
      const authData = Buffer.concat([sha256(options.rpId ?? ''), Buffer.from([UP | UV]), counterBytes(counter)])
      const data = clientData('webauthn.get', options.challenge, origin)
      const signature = sign('sha256', Buffer.concat([authData, sha256(data)]), privateKey)
      return {
        id: b64url(credentialId),
        rawId: b64url(credentialId),
        type: 'public-key',
        response: {
          clientDataJSON: b64url(data),
          authenticatorData: b64url(authData),
          signature: b64url(signature),
          ...(userHandle ? { userHandle: b64url(Buffer.from(userHandle)) } : {}),
        },
        clientExtensionResults: {},
      }
    },
  }
}
