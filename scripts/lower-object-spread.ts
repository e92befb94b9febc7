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
  return { code: fasterSpreadProps(out.code, id), map: out.map }
}

/**
 * esbuild's helper for `{ ...a, b }`: copies `b`'s properties through one descriptor object for all of them. esbuild
 * renames the parameters when the module has an `a` or `b` of its own.
 */
const ESBUILD_SPREAD_PROPS =
  /^var __spreadProps = \((\w+), (\w+)\) => __defProps\(\1, __getOwnPropDescs\(\2\)\);$/m

/**
 * The same definitions, one property at a time: a data property that `a` does not have yet is assigned (what
 * `__defNormalProp` does for `__spreadValues`), anything else defined with its own descriptor. On this Node, 0.12 µs
 * instead of 0.82 for two properties, where `Object.getOwnPropertyDescriptors` and `Object.defineProperties` made
 * `{ ...a, b }` lowered cost as much as native spread (docs/decisions/0049). One line, so the source map still fits.
 */
const FASTER_SPREAD_PROPS =
  'var __spreadProps = (a, b) => { for (var p of Object.getOwnPropertyNames(b)) { var d = Object.getOwnPropertyDescriptor(b, p); if (d.writable && d.enumerable && d.configurable && !(p in a)) a[p] = d.value; else Object.defineProperty(a, p, d); } for (var s of Object.getOwnPropertySymbols(b)) Object.defineProperty(a, s, Object.getOwnPropertyDescriptor(b, s)); return a; };'

/** esbuild's output with the faster `__spreadProps`; a build error when esbuild writes the helper differently. */
export function fasterSpreadProps(code: string, id: string): string {
  if (!code.includes('__spreadProps')) return code
  if (!ESBUILD_SPREAD_PROPS.test(code)) {
    throw new Error(
      `lower-object-spread: esbuild's __spreadProps helper changed (in ${id}); update FASTER_SPREAD_PROPS`,
    )
  }
  return code.replace(ESBUILD_SPREAD_PROPS, () => FASTER_SPREAD_PROPS)
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
