// Finds a Chromium for Playwright: PLAYWRIGHT_CHROMIUM_PATH, Debian's /usr/bin/chromium, or Playwright's own.
// When none is found and we are root with apt, installs Debian's `chromium` (no browser can be downloaded here),
// and Japanese fonts when the machine has none: every visitor's phone has them (Android ships Noto CJK), and
// without them Chromium hunts for a fallback font for every glyph, which is what Lighthouse would measure then
// (docs/decisions/0031).
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)

function playwrightOwn() {
  try {
    const { chromium } = require('playwright-core')
    const p = chromium.executablePath()
    return p && existsSync(p) ? p : undefined
  } catch {
    return undefined
  }
}

export function findChromium() {
  const candidates = [process.env.PLAYWRIGHT_CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser']
  for (const c of candidates) if (c && existsSync(c)) return c
  return playwrightOwn()
}

function hasJapaneseFont() {
  const r = spawnSync('fc-list', [':lang=ja'], { encoding: 'utf8' })
  return r.status === 0 && r.stdout.trim() !== ''
}

export function ensureChromium() {
  const found = findChromium()
  const fonts = hasJapaneseFont()
  if (found && fonts) return found
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0
  const hasApt = spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0
  if (!isRoot || !hasApt) {
    if (found) {
      console.warn('No Japanese font found (fc-list :lang=ja): pages render with fallback glyphs.')
      return found
    }
    throw new Error(
      "No Chromium found. Set PLAYWRIGHT_CHROMIUM_PATH or install Debian's chromium (apt-get install chromium).",
    )
  }
  const packages = [...(found ? [] : ['chromium']), ...(fonts ? [] : ['fonts-noto-cjk'])]
  console.log(`Installing ${packages.join(' and ')} with apt-get…`)
  try {
    execFileSync(
      'sh',
      [
        '-c',
        `apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${packages.join(' ')}`,
      ],
      { stdio: 'inherit' },
    )
  } catch (error) {
    // Only the fonts were missing: the journeys still run, with fallback glyphs (and a warning).
    if (!found) throw error
    console.warn('Could not install fonts-noto-cjk: pages render with fallback glyphs.')
    return found
  }
  const after = findChromium()
  if (!after) throw new Error('chromium was installed but /usr/bin/chromium is missing')
  return after
}
