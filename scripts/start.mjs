// `npm start`: build when the sources are newer than the build, then serve the production build.
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = resolve(fileURLToPath(new URL('..', import.meta.url)))
const built = join(root, process.env.BUILD_DIR ?? 'dist', 'server', 'server.js')

function newestMtime(path) {
  if (!existsSync(path)) return 0
  const st = statSync(path)
  if (!st.isDirectory()) return st.mtimeMs
  let newest = st.mtimeMs
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules' || entry.startsWith('.')) continue
    newest = Math.max(newest, newestMtime(join(path, entry)))
  }
  return newest
}

const inputs = ['app', 'public', 'app.config.ts', 'vite.config.ts', 'tailwind.config.ts', 'package-lock.json']
const sourcesAt = Math.max(...inputs.map((p) => newestMtime(join(root, p))))
const builtAt = existsSync(built) ? statSync(built).mtimeMs : 0

if (builtAt < sourcesAt || process.env.FORCE_BUILD === '1') {
  console.log('Building the app (sources changed since the last build)…')
  const r = spawnSync(process.execPath, [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build'], {
    cwd: root,
    stdio: 'inherit',
  })
  if (r.status !== 0) process.exit(r.status ?? 1)
}

const { startServer } = await import('./serve.mjs')
await startServer()
