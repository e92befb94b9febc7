// The client build's files for scripts/serve.mjs. The build does not change while the server runs (`npm start`
// builds before it serves), so it is listed once at start: a request for a page costs no file-system call, and a
// request for a file only reads it. Each compressible file is compressed once, at the best setting, in the
// background after the first request for it; until then requests get the fast streaming compression they always had.
import { existsSync, readdirSync, statSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { extname, join, relative, sep } from 'node:path'
import { promisify } from 'node:util'
import zlib from 'node:zlib'

export const CONTENT_TYPES = {
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

export const COMPRESSIBLE = /^(text\/|application\/(json|javascript|xml)|image\/svg)/

/** Files this small are sent as they are: compression would save less than its headers cost. */
export const COMPRESS_MIN_BYTES = 1024

// The coding rule is the app's own, so that kept pages and files answer alike.
export { preferredEncoding } from '../app/lib/accept-encoding.js'

/**
 * Every file under `dir`, by its URL path (`/assets/index-abc.js`): `{ path, size, type }`. Only these are
 * served, so a path that climbs out of the folder (`/..%2F..`) cannot match anything.
 */
export function indexStaticFiles(dir) {
  const files = new Map()
  const walk = (folder) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name)
      if (entry.isDirectory()) walk(path)
      else if (entry.isFile())
        files.set(`/${relative(dir, path).split(sep).join('/')}`, {
          path,
          size: statSync(path).size,
          type: CONTENT_TYPES[extname(path)] ?? 'application/octet-stream',
        })
    }
  }
  if (existsSync(dir)) walk(dir)
  return files
}

const brotli = promisify(zlib.brotliCompress)
const gzip = promisify(zlib.gzip)

/** Best-setting compression: ~9 % smaller scripts than the streaming setting, at ~0.6 s for the 400 KB entry. */
function compressBest(data, encoding) {
  return encoding === 'br'
    ? brotli(data, {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length,
        },
      })
    : gzip(data, { level: zlib.constants.Z_BEST_COMPRESSION })
}

/**
 * Compressed bodies of static files, made once per file and encoding. `get` answers the body when it is ready;
 * otherwise it queues making it and answers undefined, and the caller compresses this response on the fly.
 * `prepare` answers the body when it is made (tests, warm-ups). The queue makes one body at a time, so that a
 * first visit after a deploy (a page's half-dozen scripts at once) does not take several cores from the pages
 * being served. A failed compression is logged and tried again by a later request.
 */
export function createCompressedBodies() {
  const ready = new Map()
  const making = new Map()
  let queue = Promise.resolve()
  const keyOf = (file, encoding) => `${encoding} ${file.path}`
  function prepare(file, encoding) {
    const key = keyOf(file, encoding)
    const done = ready.get(key)
    if (done) return Promise.resolve(done)
    let job = making.get(key)
    if (!job) {
      job = queue
        .then(() => readFile(file.path))
        .then((data) => compressBest(data, encoding))
        .then(
          (body) => {
            ready.set(key, body)
            return body
          },
          (error) => {
            // Logged, not thrown: this response and the next are compressed on the fly, and a later one tries again.
            console.warn(
              `static files: could not compress ${file.path} (${encoding}): ${error?.message ?? error}`,
            )
            return undefined
          },
        )
        .finally(() => making.delete(key))
      making.set(key, job)
      queue = job.then(() => undefined)
    }
    return job
  }
  return {
    get(file, encoding) {
      const body = ready.get(keyOf(file, encoding))
      if (!body) void prepare(file, encoding)
      return body
    },
    prepare,
  }
}

/**
 * Asks the server at `origin` for the scripts and styles of `pages` until each comes back compressed at the best
 * setting (with a Content-Length), so that a measurement that follows does not share the CPU with the background
 * compression a first visit starts. Gives up after `ms`.
 */
export async function warmCompressedAssets(origin, pages, ms = 30_000) {
  const assets = new Set()
  for (const page of pages) {
    const html = await (await fetch(`${origin}${page}`)).text()
    // Attributes (the stylesheet) and the boot script's JSON (the scripts it adds after the first paint, 0034).
    for (const [, path] of html.matchAll(/"(\/assets\/[^"]+\.(?:js|css))"/g)) assets.add(path)
  }
  const until = Date.now() + ms
  for (const path of assets)
    while (Date.now() < until) {
      const res = await fetch(`${origin}${path}`, { headers: { 'accept-encoding': 'br' } })
      await res.arrayBuffer()
      if (res.headers.has('content-length')) break
      await new Promise((r) => setTimeout(r, 100))
    }
}
