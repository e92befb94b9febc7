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
