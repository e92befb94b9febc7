import '@tanstack/react-start/server-only'
import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { join, normalize, sep } from 'node:path'
import { ApiError, api } from './api-client'
import { getUploadStore, type UploadStore } from './upload-store.server'
import { readUpload } from './uploads.server'

/**
 * The share image of a class (issue 16): its picture as a 1200×630 PNG, which LINE, X and Facebook show (they
 * ignore SVG og:images). Made on first request from the class's current image and kept in the upload store under
 * a name derived from that image, so a new picture makes a new file and an old one is never served for it.
 */

const WIDTH = 1200
const HEIGHT = 630
const DEFAULT_IMAGE = '/images/classes/default.svg'
const BUNDLED = /^\/images\/[a-z0-9/_-]+\.(svg|png|jpg|webp)$/

/** A bundled image: the client build's copy in production, `public/` in development. */
async function readBundled(path: string): Promise<Uint8Array | undefined> {
  if (!BUNDLED.test(path)) return undefined
  for (const root of [
    join(process.cwd(), process.env.BUILD_DIR ?? 'dist', 'client'),
    join(process.cwd(), 'public'),
  ]) {
    const file = normalize(join(root, path))
    if (!file.startsWith(root + sep)) continue
    try {
      return new Uint8Array(await readFile(file))
    } catch {}
  }
  return undefined
}

async function sourceBytes(imageUrl: string, store: UploadStore): Promise<Uint8Array | undefined> {
  if (imageUrl.startsWith('/uploads/'))
    return (await readUpload(imageUrl.slice('/uploads/'.length), store))?.bytes
  return readBundled(imageUrl)
}

const png = (bytes: Uint8Array) =>
  new Response(bytes as Uint8Array<ArrayBuffer>, {
    headers: {
      'Content-Type': 'image/png',
      'Content-Length': String(bytes.byteLength),
      'Cache-Control': 'public, max-age=86400, stale-while-revalidate=604800',
      'X-Content-Type-Options': 'nosniff',
    },
  })

const notFound = () =>
  new Response('Not Found', {
    status: 404,
    headers: { 'Content-Type': 'text/plain', 'Cache-Control': 'no-store' },
  })

/**
 * Where the share image of a class made from `imageUrl` is kept (a new picture, a new name). An uploaded picture's
 * is the class's own, deleted with the picture (0035); a bundled picture's is one file for every class showing it,
 * as nothing would ever delete a copy per class.
 */
export function ogImagePath(classWorkId: number, imageUrl: string): string {
  const key = createHash('sha256').update(imageUrl).digest('hex').slice(0, 16)
  return imageUrl.startsWith('/uploads/') ? `og/classes/${classWorkId}-${key}.png` : `og/bundled/${key}.png`
}

/** GET /og/class/<id>.png */
export async function classOgImageResponse(
  file: string,
  store: UploadStore = getUploadStore(),
): Promise<Response> {
  const m = /^([1-9]\d{0,8})\.png$/.exec(file)
  if (!m) return notFound()
  let imageUrl: string
  try {
    const detail = await api.getClassWork(Number(m[1]))
    if (!detail) return notFound()
    imageUrl = detail.image_url ?? DEFAULT_IMAGE
  } catch (error) {
    if (error instanceof ApiError && error.status === 410) return notFound()
    throw error
  }
  const bytes = await classShareImage(Number(m[1]), imageUrl, store)
  return bytes ? png(bytes) : notFound()
}

/** The share image of class `classWorkId` showing `imageUrl`: kept, or made now and kept; none if it is gone. */
export async function classShareImage(
  classWorkId: number,
  imageUrl: string,
  store: UploadStore,
): Promise<Uint8Array | undefined> {
  const path = ogImagePath(classWorkId, imageUrl)
  const cached = await store.get(path)
  if (cached) return cached.bytes
  const picture = await sourceBytes(imageUrl, store)
  const source = picture ?? (await readBundled(DEFAULT_IMAGE))
  if (!source) return undefined
  const { default: sharp } = await import('sharp')
  const out = new Uint8Array(
    await sharp(source, { limitInputPixels: 40_000_000, density: 144 })
      .resize(WIDTH, HEIGHT, { fit: 'cover' })
      .flatten({ background: '#ffffff' })
      .png({ compressionLevel: 9 })
      .toBuffer(),
  )
  // Two first requests at once both render; the second write is the same bytes under the same name.
  await store.put(path, 'image/png', out).catch(() => {})
  // A release (0035) deletes the picture, then its widths and this image: one that ran while this image was being
  // made missed it, and it would be kept for good. As for a width (uploads.server.ts), gone with its original.
  if (picture && imageUrl.startsWith('/uploads/')) {
    try {
      if (!(await store.get(imageUrl.slice('/uploads/'.length)))) {
        await store.delete(path)
        return undefined
      }
    } catch {
      // The bytes are in hand: answer them; the image goes at the picture's next release.
    }
  }
  return out
}
