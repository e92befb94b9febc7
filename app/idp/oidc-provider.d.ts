/**
 * The parts of oidc-provider v9 this app uses. The package ships no type declarations and @types/oidc-provider
 * is not installed; these are deliberately narrow.
 */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http'

  type Json = Record<string, unknown>

  export interface CookieJar {
    get(name: string, options?: Json): string | undefined
    set(name: string, value: string | null, options?: Json): void
    secure?: boolean
  }

  export interface OIDCContextLike {
    params: Record<string, unknown>
    session: SessionModel
    client: ClientModel
    result?: { login?: { accountId: string }; consent?: { grantId?: string } } & Json
    resourceServers: Record<string, unknown>
    requestParamScopes: Set<string>
    requestParamOIDCScopes: Set<string>
    route: string
    provider: Provider
    entities: Record<string, unknown>
  }

  export interface KoaContext {
    req: IncomingMessage & { originalUrl?: string; baseUrl?: string; body?: unknown }
    res: ServerResponse
    method: string
    path: string
    url: string
    href: string
    host: string
    secure: boolean
    query: Record<string, string | string[] | undefined>
    status: number
    body: unknown
    type: string
    cookies: CookieJar
    oidc: OIDCContextLike
    redirect(url: string): void
    set(field: string, value: string | string[]): void
    get(field: string): string
  }

  export type Middleware = (ctx: KoaContext, next: () => Promise<void>) => Promise<void> | void

  export interface InteractionPrompt {
    name: string
    reasons: string[]
    details: Json
  }

  export interface Interaction {
    uid: string
    jti: string
    exp: number
    prompt: InteractionPrompt
    params: Record<string, unknown>
    returnTo: string
    session?: { accountId?: string; uid?: string; cookie?: string; acr?: string; amr?: string[] }
    grantId?: string
    lastSubmission?: Json
    result?: Json
    save(ttl: number): Promise<string>
  }

  export interface SessionModel {
    new?: boolean
    uid: string
    accountId?: string
    authorizations?: Record<string, { grantId?: string; sid?: string; persistsLogout?: boolean }>
    grantIdFor(clientId: string, value?: string): string | undefined
    destroy(): Promise<void>
  }

  export interface ClientModel {
    clientId: string
    grantTypeAllowed(type: string): boolean
  }

  export interface GrantModel {
    jti: string
    accountId: string
    clientId: string
    addOIDCScope(scope: string): void
    addOIDCClaims(claims: string[]): void
    addResourceScope(resource: string, scope: string): void
    save(ttl?: number): Promise<string>
    destroy(): Promise<void>
  }

  export interface GrantStatic {
    new (properties: { accountId?: string; clientId: string }): GrantModel
    find(id: string): Promise<GrantModel | undefined>
  }

  export interface TokenStatic {
    revokeByGrantId(grantId: string): Promise<void>
  }

  export interface SessionStatic {
    get(ctx: KoaContext): Promise<SessionModel>
    findByUid(uid: string): Promise<SessionModel | undefined>
  }

  export interface AccountClaims {
    sub: string
    [claim: string]: unknown
  }

  export interface Account {
    accountId: string
    claims(
      use: string,
      scope: string,
      claims: Json,
      rejected: string[],
    ): AccountClaims | Promise<AccountClaims>
  }

  export interface AdapterPayload {
    jti?: string
    uid?: string
    grantId?: string
    userCode?: string
    consumed?: number
    [key: string]: unknown
  }

  export interface Adapter {
    upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void>
    find(id: string): Promise<AdapterPayload | undefined>
    findByUserCode(userCode: string): Promise<AdapterPayload | undefined>
    findByUid(uid: string): Promise<AdapterPayload | undefined>
    consume(id: string): Promise<void>
    destroy(id: string): Promise<void>
    revokeByGrantId(grantId: string): Promise<void>
  }

  /** The configuration object; see the oidc-provider documentation. */
  export type Configuration = Record<string, unknown>

  export class Provider {
    constructor(issuer: string, configuration?: Configuration)
    issuer: string
    proxy: boolean
    keys?: string[]
    callback(): (req: IncomingMessage, res: ServerResponse) => Promise<void>
    use(fn: Middleware): this
    on(event: string, listener: (...args: unknown[]) => void): this
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<Interaction>
    interactionResult(
      req: IncomingMessage,
      res: ServerResponse,
      result: Json,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<string>
    cookieName(type: 'session' | 'interaction' | 'resume'): string
    urlFor(name: string, options?: Json): string
    pathFor(name: string, options?: Json): string
    Session: SessionStatic
    Grant: GrantStatic
    AccessToken: TokenStatic
    RefreshToken: TokenStatic
    AuthorizationCode: TokenStatic
  }

  export class OIDCProviderError extends Error {
    error: string
    error_description?: string
    status: number
    expose: boolean
  }

  export const errors: {
    OIDCProviderError: typeof OIDCProviderError
    SessionNotFound: new (description?: string) => OIDCProviderError
    InvalidTarget: new (description?: string) => OIDCProviderError
    AccessDenied: new (description?: string) => OIDCProviderError
    InvalidRequest: new (description?: string) => OIDCProviderError
  }

  export class Check {
    constructor(
      reason: string,
      description: string,
      check: (ctx: KoaContext) => boolean | Promise<boolean>,
      details?: (ctx: KoaContext) => Json,
    )
    static REQUEST_PROMPT: true
    static NO_NEED_TO_PROMPT: false
  }

  export interface PromptPolicy {
    name: string
    checks: Check[] & { add(check: Check, index?: number): void }
  }

  export const interactionPolicy: {
    Check: typeof Check
    base(): PromptPolicy[] & { get(name: string): PromptPolicy | undefined }
  }

  export default Provider
}
