// Plain JavaScript on purpose, like accept-encoding.js: the unbundled production server (scripts/serve.mjs)
// imports it, and a unit test holds its rules.

/**
 * The client's address: the socket's peer, or with one trusted proxy in front (TRUST_PROXY), the last
 * X-Forwarded-For entry — the one that proxy appended. Entries to its left are whatever the client sent, so they
 * must never key a rate limit or an audit row.
 * @param {string | readonly string[] | undefined} forwardedFor
 * @param {string | undefined} peer
 * @param {boolean} trustProxy
 * @returns {string}
 */
export function clientAddress(forwardedFor, peer, trustProxy) {
  if (trustProxy) {
    const hops = String(forwardedFor ?? '')
      .split(',')
      .map((h) => h.trim())
      .filter(Boolean)
    const last = hops.at(-1)
    if (last) return last
  }
  return peer ?? ''
}

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1'])

/**
 * The caller's address for the /v1 API served alone (scripts/api.ts): the app's server on this host (loopback) or
 * on a peer named in API_TRUSTED_PEERS passes the browser's address in X-Real-IP; anyone else's claim is replaced
 * by its own socket address, so that an API client cannot write another address into the audit log.
 * @param {string | null | undefined} claimed
 * @param {string | undefined} peer
 * @param {readonly string[]} [trustedPeers]
 * @returns {string}
 */
export function apiCallerAddress(claimed, peer, trustedPeers = []) {
  // An IPv4 peer of a dual-stack socket reads ::ffff:a.b.c.d.
  const plain = peer?.startsWith('::ffff:') ? peer.slice(7) : peer
  const trusted =
    plain !== undefined && (LOOPBACK.has(peer ?? '') || LOOPBACK.has(plain) || trustedPeers.includes(plain))
  return trusted && claimed ? claimed : (peer ?? '')
}

/**
 * How many body bytes a request may send: the upload limit only where uploads go (server functions, whose
 * multipart calls carry images), the JSON limit everywhere else — whatever Content-Type the client declares.
 * @param {string} pathname
 * @param {string | undefined} contentType
 * @param {{ maxJsonBytes: number, maxUploadBytes: number }} limits
 * @returns {number}
 */
export function bodyLimit(pathname, contentType, limits) {
  const upload =
    pathname.startsWith('/_serverFn/') && String(contentType ?? '').startsWith('multipart/form-data')
  return upload ? limits.maxUploadBytes : limits.maxJsonBytes
}
