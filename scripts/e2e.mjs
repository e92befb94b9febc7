// `npm run test:e2e`: makes sure a Chromium exists, then runs Playwright against the production build.
import { spawnSync } from 'node:child_process'
import { rmSync } from 'node:fs'
import { ensureChromium } from './find-chromium.mjs'

process.env.PLAYWRIGHT_CHROMIUM_PATH = ensureChromium()
// Every run starts from a fresh seed (playwright.config.ts's default data folder): the tests add lessons to the demo
// teacher at fixed times, which a second run on the same data would find taken (docs/decisions/0056), and they use
// up the demo accounts' hourly limits.
if (!process.env.E2E_DATA_DIR) rmSync('.data/e2e', { recursive: true, force: true })
const r = spawnSync('npx', ['playwright', 'test', ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: process.env,
})
process.exit(r.status ?? 1)
