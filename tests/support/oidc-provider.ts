// A real OpenID provider for tests (oidc-provider, the certified Node implementation) on 127.0.0.1, shared by Vitest
// and Playwright: one confidential client registered for the app's callback, and accounts by login name (its
// development log-in page takes any password). Consent is given on the client's behalf, as for a company's own app.
import { randomBytes } from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import Provider from 'oidc-provider'

export interface ProviderAccount {
  email: string
  emailVerified: boolean
  givenName?: string
  familyName?: string
}

/** What loadExistingGrant reads of oidc-provider's request context. */
interface GrantContext {
  oidc: {
    result?: { consent?: { grantId?: string } }
    session: { accountId: string; grantIdFor(clientId: string): string | undefined }
    client: { clientId: string }
    provider: {
      Grant: {
        find(id: string): Promise<unknown>
        new (init: {
          clientId: string
          accountId: string
        }): { addOIDCScope(scope: string): void; save(): Promise<string> }
      }
    }
  }
}

export interface LocalOidcProvider {
  issuer: string
  clientId: string
  clientSecret: string
  accounts: Map<string, ProviderAccount>
  close(): Promise<void>
}

export async function startOidcProvider(options: {
  redirectUris: string[]
  accounts?: Record<string, ProviderAccount>
}): Promise<LocalOidcProvider> {
  const server = http.createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const clientId = `skillforge-${randomBytes(4).toString('hex')}`
  const clientSecret = randomBytes(24).toString('base64url')
  const accounts = new Map(Object.entries(options.accounts ?? {}))

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: options.redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    cookies: { keys: [randomBytes(16).toString('hex')] },
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['given_name', 'family_name', 'name'],
    },
    pkce: { required: () => true },
    ttl: { Interaction: 600, Session: 600, Grant: 600, AccessToken: 600, IdToken: 600, AuthorizationCode: 60 },
    features: { devInteractions: { enabled: true } },
    async findAccount(_ctx: unknown, id: string) {
      const account = accounts.get(id)
      if (!account) return undefined
      return {
        accountId: id,
        async claims() {
          return {
            sub: id,
            email: account.email,
            email_verified: account.emailVerified,
            given_name: account.givenName ?? 'Sam',
            family_name: account.familyName ?? 'Sign',
          }
        },
      }
    },
    // The app is the company's own: no consent screen.
    async loadExistingGrant(ctx: GrantContext) {
      const grantId = ctx.oidc.result?.consent?.grantId ?? ctx.oidc.session.grantIdFor(ctx.oidc.client.clientId)
      if (grantId) return ctx.oidc.provider.Grant.find(grantId)
      const grant = new ctx.oidc.provider.Grant({
        clientId: ctx.oidc.client.clientId,
        accountId: ctx.oidc.session.accountId,
      })
      grant.addOIDCScope('openid email profile')
      await grant.save()
      return grant
    },
  })
  // oidc-provider warns about development settings on the console: quiet in tests.
  provider.on('server_error', () => {})
  server.on('request', provider.callback())
  return {
    issuer,
    clientId,
    clientSecret,
    accounts,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
