/**
 * Median time of a full browserless login against the embedded provider (for the closing note):
 *   npx tsx scripts/bench-login.ts [count=20]
 * One login = /auth/login → /idp/authorize → /idp/interaction (IDP_TEST_LOGIN login_hint) → /idp/authorize/:uid →
 * /auth/callback (code exchange over loopback HTTP, ID token verification, session cookie).
 */
import { median, startAuthHarness } from '../tests/integration/auth-harness'

const count = Number(process.argv[2] ?? 20)
const harness = await startAuthHarness({ testLogin: true })
try {
  // One warm-up login (JIT, key import), not counted.
  await harness.newBrowser().navigate('/auth/login?login_hint=parent%40manabi.example')
  const times: number[] = []
  for (let i = 0; i < count; i++) {
    const browser = harness.newBrowser()
    const started = performance.now()
    const result = await browser.navigate('/auth/login?returnTo=%2Fmypage&login_hint=parent%40manabi.example')
    times.push(performance.now() - started)
    if (result.url.pathname !== '/mypage' || !browser.cookies.has('manabi_session')) {
      throw new Error(`login ${i + 1} did not complete: ${result.url.href}`)
    }
  }
  const sorted = [...times].sort((a, b) => a - b)
  console.log(
    `login round trip over ${count} logins: median ${median(times).toFixed(1)} ms ` +
      `(min ${sorted[0]!.toFixed(1)}, max ${sorted.at(-1)!.toFixed(1)})`,
  )
} finally {
  await harness.close()
}
