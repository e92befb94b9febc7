// `npm test`: typecheck, lint, unit and integration tests (PGlite, then PostgreSQL when TEST_DATABASE_URL is
// set), then Playwright e2e against the production build, then Lighthouse on three pages (scores in the output).
import { spawnSync } from 'node:child_process'

const { TEST_DATABASE_URL, ...envWithoutPg } = process.env

const steps = [
  ['typecheck', 'npx', ['tsc', '--noEmit'], process.env],
  ['lint', 'npx', ['biome', 'check', '.'], process.env],
  ['unit + integration (PGlite)', 'npx', ['vitest', 'run'], envWithoutPg],
  ...(TEST_DATABASE_URL
    ? [['integration (PostgreSQL)', 'npx', ['vitest', 'run', '--project', 'integration'], process.env]]
    : []),
  ['build', 'npx', ['vite', 'build'], process.env],
  ['e2e', 'node', ['scripts/e2e.mjs'], process.env],
  // Performance ≥ 95 on the median of five runs, ten when five fall short (docs/decisions/0027).
  ['lighthouse', 'node', ['scripts/lighthouse.mjs'], process.env],
]

for (const [name, cmd, args, env] of steps) {
  console.log(`\n▶ ${name}: ${cmd} ${args.join(' ')}`)
  const started = Date.now()
  const r = spawnSync(cmd, args, { stdio: 'inherit', env })
  if (r.status !== 0) {
    console.error(`✖ ${name} failed (exit ${r.status})`)
    process.exit(r.status ?? 1)
  }
  console.log(`✔ ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)`)
}
