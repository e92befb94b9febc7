// `npm test`: typecheck, lint, unit and integration tests, then Playwright e2e against the production build.
import { spawnSync } from 'node:child_process'

const steps = [
  ['typecheck', 'npx', ['tsc', '--noEmit']],
  ['lint', 'npx', ['biome', 'check', '.']],
  ['unit + integration', 'npx', ['vitest', 'run']],
  ['build', 'npx', ['vite', 'build']],
  ['e2e', 'node', ['scripts/e2e.mjs']],
]

for (const [name, cmd, args] of steps) {
  console.log(`\n▶ ${name}: ${cmd} ${args.join(' ')}`)
  const started = Date.now()
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: process.env })
  if (r.status !== 0) {
    console.error(`✖ ${name} failed (exit ${r.status})`)
    process.exit(r.status ?? 1)
  }
  console.log(`✔ ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)`)
}
