// Plain JavaScript on purpose: the production Node server (scripts/serve.mjs, not bundled, no TypeScript loader)
// and the app's shared-page cache (app/server/response-policy.server.ts) must agree on one rule, so both import
// this file; the Node server therefore needs app/lib/ beside scripts/ at run time, as it has in this repository.

/**
 * The content coding to answer in (RFC 9110 §12.5.3): brotli, else gzip, if the client accepts one; a coding with
 * q=0 is refused. A repeated header (Node gives an array) counts as one list.
 * @param {string | readonly string[] | null | undefined} acceptEncoding
 * @returns {'br' | 'gzip' | undefined}
 */
export function preferredEncoding(acceptEncoding) {
  const accepted = new Set()
  for (const part of String(acceptEncoding ?? '').split(',')) {
    const [coding = '', ...params] = part.trim().toLowerCase().split(';')
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='))
    if (q && Number(q.slice(2)) === 0) continue
    accepted.add(coding.trim())
  }
  if (accepted.has('br')) return 'br'
  if (accepted.has('gzip')) return 'gzip'
  return undefined
}
