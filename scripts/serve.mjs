// The production Node server: static files from the client build (long-lived caching for hashed
// assets), compression, and everything else through the Start server bundle's fetch handler.
import { createReadStream } from 'node:fs'
import { createServer } from 'node:http'
import { join, resolve } from 'node:path'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { fileURLToPath, pathToFileURL } from 'node:url'
import zlib from 'node:zlib'
import { bodyLimit, clientAddress } from '../app/lib/forwarded.js'
import {
  COMPRESS_MIN_BYTES,
  COMPRESSIBLE,
  createCompressedBodies,
  indexStaticFiles,
  preferredEncoding,
} from './static-files.mjs'

const root = resolve(fileURLToPath(new URL('..', import.meta.url)))
const clientDir = join(root, process.env.BUILD_DIR ?? 'dist', 'client')
const serverEntry = join(root, process.env.BUILD_DIR ?? 'dist', 'server', 'server.js')

const pickEncoding = (req) => preferredEncoding(req.headers['accept-encoding'])

function compressor(encoding) {
  return encoding === 'br'
    ? zlib.createBrotliCompress({ params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } })
    : zlib.createGzip({ level: 6 })
}

function decodable(pathname) {
  try {
    decodeURIComponent(pathname)
    return true
  } catch {
    return false
  }
}

/**
 * A path that is not valid percent-encoding (`/%`, `/%E3%81`): no route can match it, and the app would answer an
 * empty 400. The error page of spec §2 instead, in its words (no script, no style: it needs no nonce).
 */
function badAddress(req, res) {
  const html =
    '<!DOCTYPE html><html lang="ja"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">' +
    '<meta name="robots" content="noindex"><title>エラーが発生しました</title></head>' +
    '<body><main><h1>エラーが発生しました。</h1><p>ページのアドレスが正しくありません。URLに使えない文字が含まれています。</p>' +
    '<p><a href="/">トップページへ</a></p></main></body></html>'
  res.writeHead(400, {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy':
      "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
    'cache-control': 'no-store',
  })
  res.end(req.method === 'HEAD' ? undefined : html)
}

/** Serve a file from the client build (listed at start, see static-files.mjs), or return false. */
async function serveStatic(req, res, pathname, files, compressed) {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false
  let decoded
  try {
    decoded = decodeURIComponent(pathname)
  } catch {
    return false
  }
  const file = files.get(decoded)
  if (!file) return false
  const hashed = pathname.startsWith('/assets/')
  res.setHeader('Content-Type', file.type)
  res.setHeader('Cache-Control', hashed ? 'public, max-age=31536000, immutable' : 'public, max-age=3600')
  res.setHeader('X-Content-Type-Options', 'nosniff')
  res.setHeader('Vary', 'Accept-Encoding')
  const encoding =
    COMPRESSIBLE.test(file.type) && file.size > COMPRESS_MIN_BYTES ? pickEncoding(req) : undefined
  const body = encoding ? compressed.get(file, encoding) : undefined
  if (encoding) res.setHeader('Content-Encoding', encoding)
  if (body || !encoding) res.setHeader('Content-Length', body ? body.length : file.size)
  res.writeHead(200)
  if (req.method === 'HEAD') {
    res.end()
    return true
  }
  if (body) {
    res.end(body)
    return true
  }
  const stream = createReadStream(file.path)
  await pipeline(encoding ? [stream, compressor(encoding), res] : [stream, res]).catch(() => {})
  return true
}

/** Baseline headers for every response (the app's pages add a nonce-based CSP of their own, app/start.ts). */
function baselineHeaders(options) {
  const headers = {
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'strict-origin-when-cross-origin',
    'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()',
    'cross-origin-opener-policy': 'same-origin',
  }
  if (options.secureCookies) headers['strict-transport-security'] = 'max-age=31536000; includeSubDomains'
  return headers
}

/** For responses that bring no policy of their own (static files, the embedded provider's pages). */
const DEFAULT_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
  "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

function applyBaseline(res, baseline) {
  for (const [k, v] of Object.entries(baseline)) if (!res.hasHeader(k)) res.setHeader(k, v)
  if (!res.hasHeader('content-security-policy')) res.setHeader('content-security-policy', DEFAULT_CSP)
}

const PAYLOAD_TOO_LARGE = JSON.stringify({
  code: 'payload_too_large',
  message: '送信するデータが大きすぎます',
})

class BodyTooLarge extends Error {}

/** Past this many discarded bytes an oversized upload's connection is cut instead of drained. */
const DISCARD_LIMIT = 64 * 1024 * 1024

/**
 * Answers 413 without keeping or parsing the body. The rest of the body is read and thrown away first (a client
 * still sending would otherwise see a reset instead of the answer); past DISCARD_LIMIT the connection is cut.
 */
function refuseTooLarge(req, res) {
  const answer = () => {
    if (res.headersSent) return
    res.writeHead(413, { 'content-type': 'application/json; charset=utf-8' })
    res.end(PAYLOAD_TOO_LARGE)
  }
  const declared = Number(req.headers['content-length'])
  if (req.readableEnded) return answer()
  if (Number.isFinite(declared) && declared > DISCARD_LIMIT) {
    res.setHeader('connection', 'close')
    answer()
    res.on('finish', () => req.destroy())
    return
  }
  let discarded = 0
  req.removeAllListeners('data')
  req.on('data', (chunk) => {
    discarded += chunk.length
    if (discarded > DISCARD_LIMIT) {
      res.setHeader('connection', 'close')
      answer()
      req.destroy()
    }
  })
  req.on('end', answer)
  req.resume()
}

/**
 * Reads a request body up to `limit` bytes: refused (BodyTooLarge) as soon as Content-Length or the bytes read so
 * far pass it, so an oversized body is never held in memory or parsed.
 */
function readBody(req, limit) {
  const declared = Number(req.headers['content-length'])
  if (Number.isFinite(declared) && declared > limit) return Promise.reject(new BodyTooLarge())
  return new Promise((resolve, reject) => {
    const chunks = []
    let size = 0
    req.on('data', (chunk) => {
      size += chunk.length
      if (size > limit) {
        chunks.length = 0
        reject(new BodyTooLarge())
        return
      }
      chunks.push(chunk)
    })
    req.on('end', () => resolve(Buffer.concat(chunks)))
    req.on('error', reject)
  })
}

function toRequest(req, origin, body) {
  const url = new URL(req.url ?? '/', origin)
  const headers = new Headers()
  for (const [k, v] of Object.entries(req.headers)) {
    if (v === undefined) continue
    if (Array.isArray(v)) for (const item of v) headers.append(k, item)
    else headers.set(k, v)
  }
  return new Request(url, {
    method: req.method,
    headers,
    body: body && body.length > 0 ? body : undefined,
  })
}

async function writeResponse(req, res, response) {
  const headers = {}
  response.headers.forEach((value, key) => {
    if (key === 'set-cookie') return
    headers[key] = value
  })
  const cookies = response.headers.getSetCookie?.() ?? []
  if (cookies.length) headers['set-cookie'] = cookies
  const type = response.headers.get('content-type') ?? ''
  // Event streams (GET /events) go out uncompressed: each event must reach the browser as it is written.
  const encoding =
    response.body &&
    !response.headers.has('content-encoding') &&
    COMPRESSIBLE.test(type) &&
    !type.startsWith('text/event-stream')
      ? pickEncoding(req)
      : undefined
  if (encoding) {
    headers['content-encoding'] = encoding
    headers.vary = headers.vary ? `${headers.vary}, Accept-Encoding` : 'Accept-Encoding'
    delete headers['content-length']
  }
  res.writeHead(response.status, headers)
  if (!response.body || req.method === 'HEAD') return res.end()
  const body = Readable.fromWeb(response.body)
  // A streamed body (an event stream is not compressed, a server function may stream): flush chunks as they come.
  const z = encoding ? compressor(encoding) : undefined
  if (z) {
    body.on('data', () => setImmediate(() => z.flush?.()))
  }
  await pipeline(z ? [body, z, res] : [body, res]).catch(() => {})
}

function fail(message) {
  console.error(message)
  process.exit(1)
}

/**
 * Idle keep-alive connections are kept longer than a load balancer keeps its own (60 s is the usual default):
 * Node's 5 s would close sockets the balancer is about to reuse, and its next request would fail (a 502 or a
 * reset). The header timeout must exceed it, or a slow first request on a reused socket is cut.
 */
export function keepConnectionsForBalancers(server) {
  server.keepAliveTimeout = 65_000
  server.headersTimeout = 66_000
}

export async function startServer({ host = process.env.HOST ?? '0.0.0.0' } = {}) {
  // The bundle imports React from node_modules, which picks its build from NODE_ENV when first loaded: unset, the
  // server would render with React's development build (about twice the CPU per page).
  process.env.NODE_ENV ??= 'production'
  const mod = await import(pathToFileURL(serverEntry).href)
  const app = mod.default
  const nodeHandlers = mod.nodeHandlers ?? []
  /** @type {{ siteOrigin: string, port: number, trustProxy: boolean, maxJsonBytes: number, maxUploadBytes: number, shutdownGraceSeconds: number, secureCookies: boolean }} */
  let options
  try {
    options = await mod.onServerStart()
  } catch (error) {
    // Configuration, DATA_DIR and database-lock errors are written as one line that names the fix.
    fail(error instanceof Error ? error.message : String(error))
  }
  const log = mod.logger ?? console
  const origin = options.siteOrigin
  const baseline = baselineHeaders(options)
  const staticFiles = indexStaticFiles(clientDir)
  const compressedBodies = createCompressedBodies()
  let inFlight = 0
  let draining = false
  let drained = () => {}

  const server = createServer(async (req, res) => {
    inFlight++
    res.on('close', () => {
      inFlight--
      if (draining && inFlight === 0) drained()
    })
    applyBaseline(res, baseline)
    if (draining) res.setHeader('connection', 'close')
    try {
      const pathname = (req.url ?? '/').split('?')[0] ?? '/'
      // The client's address for rate limits and logs; never what the client claims it is.
      req.headers['x-real-ip'] = clientAddress(
        req.headers['x-forwarded-for'],
        req.socket.remoteAddress,
        options.trustProxy,
      )
      if (draining && pathname === '/readyz') {
        res.writeHead(503, {
          'content-type': 'application/json',
          'retry-after': '5',
          'cache-control': 'no-store',
        })
        return res.end(JSON.stringify({ status: 'draining' }))
      }
      for (const h of nodeHandlers) {
        if (pathname !== h.prefix && !pathname.startsWith(`${h.prefix}/`)) continue
        if (Number(req.headers['content-length']) > options.maxJsonBytes) return refuseTooLarge(req, res)
        return await h.handle(req, res)
      }
      if (await serveStatic(req, res, pathname, staticFiles, compressedBodies)) return
      if (!decodable(pathname)) return badAddress(req, res)
      let body
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        try {
          body = await readBody(req, bodyLimit(pathname, req.headers['content-type'], options))
        } catch (error) {
          if (!(error instanceof BodyTooLarge)) throw error
          return refuseTooLarge(req, res)
        }
      }
      const response = await app.fetch(toRequest(req, origin, body))
      await writeResponse(req, res, response)
    } catch (error) {
      log.error({ err: error, method: req.method, url: req.url }, 'request failed')
      if (!res.headersSent)
        res.writeHead(500, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' })
      res.end(JSON.stringify({ code: 'internal_error', message: 'サーバーで問題が発生しました。' }))
    }
  })
  keepConnectionsForBalancers(server)
  server.on('clientError', (_error, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n')
  })
  await new Promise((ok) => {
    server.once('error', (error) => {
      if (error.code === 'EADDRINUSE')
        fail(`PORT ${options.port} is already in use: stop the other process or set PORT to a free port`)
      if (error.code === 'EACCES')
        fail(
          `PORT ${options.port} cannot be opened by this user: choose a port above 1023 or run with the right to bind it`,
        )
      fail(`Cannot listen on ${host}:${options.port}: ${error.message}`)
    })
    server.listen(options.port, host, ok)
  })
  console.log(`まなびのたね: ${origin} (port ${options.port})`)

  // Rolling restarts: stop accepting, let the requests in flight finish (at most SHUTDOWN_GRACE_SECONDS), then
  // close the database and exit 0.
  const stop = async () => {
    if (draining) return
    draining = true
    server.close()
    server.closeIdleConnections?.()
    // Long-lived responses (the /events streams) end now rather than hold the drain for the whole grace period.
    await Promise.resolve()
      .then(() => mod.onServerDrain?.())
      .catch((error) => log.error({ err: error }, 'drain failed'))
    if (inFlight > 0) {
      await new Promise((ok) => {
        drained = ok
        setTimeout(ok, options.shutdownGraceSeconds * 1000).unref()
      })
    }
    server.closeAllConnections?.()
    await mod.onServerStop?.().catch((error) => log.error({ err: error }, 'shutdown failed'))
    process.exit(0)
  }
  process.once('SIGTERM', stop)
  process.once('SIGINT', stop)
  return server
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await startServer()
}
