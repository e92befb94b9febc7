// The production Node server: static files from the client build (long-lived caching for hashed
// assets), compression, and everything else through the Start server bundle's fetch handler.
import { createReadStream, existsSync, statSync } from 'node:fs'
import { createServer } from 'node:http'
import { extname, join, normalize, resolve, sep } from 'node:path'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { fileURLToPath, pathToFileURL } from 'node:url'
import zlib from 'node:zlib'

const root = resolve(fileURLToPath(new URL('..', import.meta.url)))
const clientDir = join(root, process.env.BUILD_DIR ?? 'dist', 'client')
const serverEntry = join(root, process.env.BUILD_DIR ?? 'dist', 'server', 'server.js')

const types = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml',
  '.woff2': 'font/woff2',
  '.map': 'application/json',
}
const compressible = /^(text\/|application\/(json|javascript|xml)|image\/svg)/

function pickEncoding(req) {
  const accept = String(req.headers['accept-encoding'] ?? '')
  if (/\bbr\b/.test(accept)) return 'br'
  if (/\bgzip\b/.test(accept)) return 'gzip'
  return undefined
}

function compressor(encoding) {
  return encoding === 'br'
    ? zlib.createBrotliCompress({ params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } })
    : zlib.createGzip({ level: 6 })
}

/** Serve a file from the client build, or return false. */
async function serveStatic(req, res, pathname) {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false
  let decoded
  try {
    decoded = decodeURIComponent(pathname)
  } catch {
    return false
  }
  const file = normalize(join(clientDir, decoded))
  if (!file.startsWith(clientDir + sep)) return false
  if (!existsSync(file)) return false
  const stat = statSync(file)
  if (!stat.isFile()) return false
  const type = types[extname(file)] ?? 'application/octet-stream'
  const hashed = pathname.startsWith('/assets/')
  res.setHeader('Content-Type', type)
  res.setHeader('Cache-Control', hashed ? 'public, max-age=31536000, immutable' : 'public, max-age=3600')
  res.setHeader('X-Content-Type-Options', 'nosniff')
  res.setHeader('Vary', 'Accept-Encoding')
  const encoding = compressible.test(type) && stat.size > 1024 ? pickEncoding(req) : undefined
  if (encoding) res.setHeader('Content-Encoding', encoding)
  else res.setHeader('Content-Length', stat.size)
  res.writeHead(200)
  if (req.method === 'HEAD') {
    res.end()
    return true
  }
  const stream = createReadStream(file)
  await pipeline(encoding ? [stream, compressor(encoding), res] : [stream, res]).catch(() => {})
  return true
}

function toRequest(req, origin) {
  const url = new URL(req.url ?? '/', origin)
  const headers = new Headers()
  for (const [k, v] of Object.entries(req.headers)) {
    if (v === undefined) continue
    if (Array.isArray(v)) for (const item of v) headers.append(k, item)
    else headers.set(k, v)
  }
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD'
  return new Request(url, {
    method: req.method,
    headers,
    body: hasBody ? Readable.toWeb(req) : undefined,
    duplex: hasBody ? 'half' : undefined,
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
  const encoding =
    response.body && !response.headers.has('content-encoding') && compressible.test(type)
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
  // Streamed SSR: flush compressed chunks as they come.
  const z = encoding ? compressor(encoding) : undefined
  if (z) {
    body.on('data', () => setImmediate(() => z.flush?.()))
  }
  await pipeline(z ? [body, z, res] : [body, res]).catch(() => {})
}

export async function startServer({
  port = Number(process.env.PORT ?? 3000),
  host = process.env.HOST ?? '0.0.0.0',
} = {}) {
  // The bundle imports React from node_modules, which picks its build from NODE_ENV when first loaded: unset, the
  // server would render with React's development build (about twice the CPU per page).
  process.env.NODE_ENV ??= 'production'
  const mod = await import(pathToFileURL(serverEntry).href)
  const app = mod.default
  const origin = process.env.SITE_ORIGIN ?? `http://localhost:${port}`
  const nodeHandlers = mod.nodeHandlers ?? []
  try {
    await mod.onServerStart?.()
  } catch (error) {
    console.error(`\n${error instanceof Error ? error.message : error}\n`)
    process.exit(1)
  }

  const server = createServer(async (req, res) => {
    try {
      const pathname = (req.url ?? '/').split('?')[0] ?? '/'
      for (const h of nodeHandlers) {
        if (pathname === h.prefix || pathname.startsWith(`${h.prefix}/`)) return await h.handle(req, res)
      }
      if (await serveStatic(req, res, pathname)) return
      const response = await app.fetch(toRequest(req, origin))
      await writeResponse(req, res, response)
    } catch (error) {
      console.error('[server] request failed', error)
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' })
      res.end('サーバーで問題が発生しました。')
    }
  })
  await new Promise((ok) => server.listen(port, host, ok))
  console.log(`まなびのたね: ${origin} (port ${port})`)
  const stop = async () => {
    server.close()
    await mod.onServerStop?.().catch(() => {})
    process.exit(0)
  }
  process.once('SIGTERM', stop)
  process.once('SIGINT', stop)
  return server
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await startServer()
}
