// Finds a Chromium for Playwright: PLAYWRIGHT_CHROMIUM_PATH, Debian's /usr/bin/chromium, or Playwright's own.
// When none is found and we are root with apt, installs Debian's `chromium` (no browser can be downloaded here).
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

export function ensureChromium() {
  const found = findChromium()
  if (found) return found
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0
  const hasApt = spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0
  if (!isRoot || !hasApt) {
    throw new Error(
      "No Chromium found. Set PLAYWRIGHT_CHROMIUM_PATH or install Debian's chromium (apt-get install chromium).",
    )
  }
  console.log('Installing Debian chromium with apt-get…')
  execFileSync(
    'sh',
    ['-c', 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium'],
    {
      stdio: 'inherit',
    },
  )
  const after = findChromium()
  if (!after) throw new Error('chromium was installed but /usr/bin/chromium is missing')
  return after
}
