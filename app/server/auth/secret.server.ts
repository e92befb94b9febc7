import { createHmac, randomBytes } from 'node:crypto'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'

/**
 * The secret behind the session cookie (and, derived from it, the embedded provider's client secret and cookie
 * keys). SESSION_SECRET wins; outside a real deployment an unset secret is generated once into `${dataDir}/session-secret`
 * and reused, so sessions survive restarts; in production with Auth0 an unset secret is a startup error.
 */

export interface SecretSource {
  sessionSecret?: string
  dataDir: string
  /** True for a real deployment (production with Auth0): an unset secret is then a startup error. */
  requiresSessionSecret: boolean
}

export class SessionSecretError extends Error {
  override name = 'SessionSecretError'
}

const MIN_LENGTH = 32
const resolved = new Map<string, string>()

export function resolveSessionSecret(source: SecretSource): string {
  if (source.sessionSecret) {
    if (source.sessionSecret.length < MIN_LENGTH) {
      throw new SessionSecretError(`SESSION_SECRET must be at least ${MIN_LENGTH} characters`)
    }
    return source.sessionSecret
  }
  if (source.requiresSessionSecret) {
    throw new SessionSecretError(
      `SESSION_SECRET is required in production with Auth0 (at least ${MIN_LENGTH} random characters). See .env.example.`,
    )
  }
  const file = join(source.dataDir, 'session-secret')
  const cached = resolved.get(file)
  if (cached) return cached
  const secret = readOrCreateSecretFile(file)
  resolved.set(file, secret)
  return secret
}

function readOrCreateSecretFile(file: string): string {
  const existing = readSecret(file)
  if (existing) return existing
  mkdirSync(dirname(file), { recursive: true })
  const secret = randomBytes(32).toString('base64url')
  try {
    // 'wx': when two processes race, the first file wins and both read it back.
    writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' })
    return secret
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    const winner = readSecret(file)
    if (!winner) throw new SessionSecretError(`${file} exists but holds no usable secret`)
    return winner
  }
}

function readSecret(file: string): string | undefined {
  try {
    const value = readFileSync(file, 'utf8').trim()
    return value.length >= MIN_LENGTH ? value : undefined
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw error
  }
}

/** A sub-secret for one purpose, so the session secret itself is never used twice. */
export function deriveSecret(secret: string, purpose: string): string {
  return createHmac('sha256', secret).update(`manabi:${purpose}`).digest('base64url')
}
