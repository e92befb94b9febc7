import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { deriveSecret, resolveSessionSecret, SessionSecretError } from './secret.server'

const dirs: string[] = []
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'manabi-secret-'))
  dirs.push(dir)
  return dir
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

describe('resolveSessionSecret', () => {
  it('uses SESSION_SECRET when set', () => {
    const secret = 'x'.repeat(40)
    expect(
      resolveSessionSecret({ sessionSecret: secret, dataDir: tempDir(), requiresSessionSecret: true }),
    ).toBe(secret)
  })

  it('is a startup error in production when unset', () => {
    expect(() => resolveSessionSecret({ dataDir: tempDir(), requiresSessionSecret: true })).toThrow(
      SessionSecretError,
    )
  })

  it('generates a secret into DATA_DIR outside production and reuses it', () => {
    const dataDir = join(tempDir(), 'nested')
    const first = resolveSessionSecret({ dataDir, requiresSessionSecret: false })
    expect(first.length).toBeGreaterThanOrEqual(32)
    const file = join(dataDir, 'session-secret')
    expect(readFileSync(file, 'utf8').trim()).toBe(first)
    expect(statSync(file).mode & 0o777).toBe(0o600)
    expect(resolveSessionSecret({ dataDir, requiresSessionSecret: false })).toBe(first)
  })

  it('derives distinct sub-secrets per purpose', () => {
    const secret = 'y'.repeat(40)
    expect(deriveSecret(secret, 'a')).not.toBe(deriveSecret(secret, 'b'))
    expect(deriveSecret(secret, 'a')).toBe(deriveSecret(secret, 'a'))
  })
})
