// oidc-provider ships no types: the little the test provider uses.
declare module 'oidc-provider' {
  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>)
    callback(): (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => void
    on(event: string, listener: (...args: unknown[]) => void): this
  }
}
