import { transform } from 'esbuild'
import type { Plugin } from 'vite'

/**
 * The server build only: object spread and rest are lowered to one assignment per property (docs/decisions/0049).
 * On the Node this project runs (20, V8 11.3), `{ ...a, b }` makes a new hidden class on every call once optimized,
 * 0.6–1.6 µs each, and the router and query libraries do it throughout a render. The browser's build is left as it
 * is: browsers do not share that V8, and the helpers would add bytes to every first load.
 */
export function lowerServerObjectSpread(): Plugin {
  return {
    name: 'manabi:lower-server-object-spread',
    apply: 'build',
    // After the TypeScript and JSX transforms: the code is JavaScript by then.
    enforce: 'post',
    applyToEnvironment: (environment) => environment.name === 'ssr',
    // The build only: the dev server's module runner cannot run the CommonJS some of them import (React's
    // use-sync-external-store), and Node loads them from node_modules there as before.
    config: () => ({ ssr: { noExternal: SERVER_LOWERED } }),
    transform(code, id) {
      return lowerObjectSpread(code, id)
    },
  }
}

/** The module with object spread and rest lowered, or null when it has none (or is not JavaScript). */
export async function lowerObjectSpread(code: string, id: string) {
  if (!code.includes('...') || !/\.[cm]?[jt]sx?$/.test(id.split('?')[0] ?? '')) return null
  const out = await transform(code, {
    loader: 'js',
    target: 'esnext',
    supported: { 'object-rest-spread': false },
    sourcemap: true,
    sourcefile: id,
  })
  return { code: out.code, map: out.map }
}

/**
 * Bundled into the server build rather than loaded from node_modules, so that lowerServerObjectSpread reaches them.
 * Every package that imports one of them is bundled too (Start's plugin bundles its own), so the server has one copy
 * of each: two copies of the router would be two router contexts.
 */
export const SERVER_LOWERED = [
  '@tanstack/react-router',
  '@tanstack/router-core',
  '@tanstack/history',
  '@tanstack/react-query',
  '@tanstack/query-core',
  '@tanstack/react-store',
  '@tanstack/store',
]
