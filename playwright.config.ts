import { defineConfig, devices } from '@playwright/test'
import { findChromium } from './scripts/find-chromium.mjs'
import { SERVER_NODE_FLAGS } from './scripts/server-flags.mjs'

const PORT = Number(process.env.E2E_PORT ?? 3100)
const baseURL = `http://localhost:${PORT}`
const executablePath = findChromium()

// The system Chromium (none can be downloaded here), with the flags this closed network needs.
const launchOptions = {
  executablePath,
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
}

export default defineConfig({
  testDir: './tests/e2e',
  fullyParallel: true,
  workers: process.env.CI ? 2 : undefined,
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? [['list']] : [['list']],
  // CI shares two CPUs between the server, two browsers and the runner, and such a machine was seen running at half
  // its usual speed (journeys near 30 s then timed out on both attempts): a journey gets twice as long there.
  timeout: process.env.CI ? 60_000 : 30_000,
  expect: { timeout: 7_000 },
  use: { baseURL, trace: 'retain-on-failure', locale: 'ja-JP', timezoneId: 'Asia/Tokyo', launchOptions },
  projects: [
    {
      name: 'phone',
      // Journeys on shared demo data that must not run twice at once (tagged in the spec).
      grepInvert: /@pc-only/,
      use: { ...devices['Pixel 7'], viewport: { width: 390, height: 844 }, launchOptions },
    },
    {
      name: 'pc',
      // Journeys that are about the phone (tagged in the spec) run on the phone project only.
      grepInvert: /@phone-only/,
      use: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 800 }, launchOptions },
    },
  ],
  webServer: {
    // The production build, as `npm start` serves it.
    command: `node ${SERVER_NODE_FLAGS.join(' ')} scripts/start.mjs`,
    url: `${baseURL}/`,
    reuseExistingServer: !process.env.CI,
    timeout: 180_000,
    env: {
      PORT: String(PORT),
      SITE_ORIGIN: baseURL,
      ENABLE_TEST_PAGES: '1',
      IDP_TEST_LOGIN: '1',
      DATA_DIR: process.env.E2E_DATA_DIR ?? '.data/e2e',
    },
  },
})
