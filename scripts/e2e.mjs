// `npm run test:e2e`: makes sure a Chromium exists, then runs Playwright against the production build.
import { spawnSync } from 'node:child_process'
import { ensureChromium } from './find-chromium.mjs'

process.env.PLAYWRIGHT_CHROMIUM_PATH = ensureChromium()
const r = spawnSync('npx', ['playwright', 'test', ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: process.env,
})
process.exit(r.status ?? 1)
