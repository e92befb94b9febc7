import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

// The layering rules of ARCHITECTURE.md that a bundler cannot check: product areas stay independent of each
// other, and shared layers never reach up into them. (Server-only code is kept out of the browser bundle by
// Start's import protection, configured in vite.config.ts.)

const root = join(__dirname)

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return sources(path)
    // Plain JavaScript too (app/lib/accept-encoding.js is shared with the unbundled Node server).
    return /\.(ts|tsx|js|mjs)$/.test(name) && !/\.test\.(tsx?|m?js)$/.test(name) ? [path] : []
  })
}

const importsOf = (file: string) =>
  [...readFileSync(file, 'utf8').matchAll(/from '([^']+)'/g)].map((m) => m[1] ?? '')

describe('architecture', () => {
  it('features never import another feature', () => {
    const offenders: string[] = []
    for (const area of readdirSync(join(root, 'features'))) {
      for (const file of sources(join(root, 'features', area))) {
        for (const spec of importsOf(file)) {
          const other = /^~\/features\/([^/]+)/.exec(spec)?.[1]
          if (other && other !== area) offenders.push(`${relative(root, file)} → ${spec}`)
        }
      }
    }
    expect(offenders).toEqual([])
  })

  it('shared layers (components, lib, contract, api, db) never import features or routes', () => {
    const offenders: string[] = []
    for (const layer of ['components', 'lib', 'contract', 'api', 'db']) {
      for (const file of sources(join(root, layer))) {
        for (const spec of importsOf(file)) {
          const target = spec.startsWith('~/')
            ? join(root, spec.slice(2))
            : spec.startsWith('.')
              ? resolve(dirname(file), spec)
              : undefined
          const top = target ? relative(root, target).split('/')[0] : undefined
          if (top === 'features' || top === 'routes') offenders.push(`${relative(root, file)} → ${spec}`)
        }
      }
    }
    expect(offenders).toEqual([])
  })

  it('code that loads later is declared with lazyPart, never React.lazy (pages render to one string: 0032)', () => {
    const offenders = sources(root).filter((file) => {
      if (file.endsWith(join('shell', 'lazy-part.tsx'))) return false
      const text = readFileSync(file, 'utf8')
      return /\blazy\(/.test(text) || /import \{[^}]*\blazy\b[^}]*\} from 'react'/.test(text)
    })
    expect(offenders.map((file) => relative(root, file))).toEqual([])
  })

  it('a write server function reads the session inside its action result (an ended session is a 401 refusal)', () => {
    // requireAccessToken()/requireSession() throw when the session ended; in a POST handler they must run inside
    // memberActionResult/toActionResult, which answer 401 for the form to show, instead of a thrown error.
    const offenders: string[] = []
    for (const file of sources(join(root, 'features')).filter((f) => f.endsWith('.functions.ts'))) {
      const blocks = readFileSync(file, 'utf8').split(/(?=export const \w+ = createServerFn)/)
      for (const block of blocks) {
        const name = /^export const (\w+) = createServerFn\(\{ method: 'POST' \}\)/.exec(block)?.[1]
        if (!name) continue
        const wrapped = block.search(/\b(memberActionResult|toActionResult)\(/)
        for (const m of block.matchAll(/\b(requireAccessToken|requireSession)\(\)/g))
          if (wrapped < 0 || (m.index ?? 0) < wrapped) offenders.push(`${relative(root, file)} ${name}`)
      }
    }
    expect(offenders).toEqual([])
  })
})
