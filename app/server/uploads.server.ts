import '@tanstack/react-start/server-only'
import { randomBytes } from 'node:crypto'
import { DATABASE_RETRY_AFTER_S } from '~/db/client'
import { contentTypeOf, type ImageCrop, MAX_IMAGE_BYTES, sniffImageType } from '~/lib/image-type'
import { parseVariant } from '~/lib/responsive-image'
import { getUploadStore, type UploadStore } from './upload-store.server'

/**
 * Uploaded images live in the upload store shared by every instance (the database, or S3 when configured; see
 * upload-store.server.ts) — class images under `classes/` (saved here), avatars under `avatars/`
 * (avatar-upload.server.ts) — with random names, and are all served by the `/uploads/$` server route.
 * Every image is type-checked by its first bytes, then re-encoded with sharp: turned upright, shrunk to fit its
 * use, metadata (camera location!) dropped, stored as WebP.
 */

export const STORED_NAME = /^(classes|avatars)\/[a-f0-9]{32}\.(png|jpg|webp)$/

export type UploadResult = { ok: true; url: string } | { ok: false; message: string }

export async function saveClassImage(
  file: File,
  store: UploadStore = getUploadStore(),
  crop?: ImageCrop,
): Promise<UploadResult> {
  if (file.size === 0) return { ok: false, message: '画像ファイルを選択してください' }
  if (file.size > MAX_IMAGE_BYTES) return { ok: false, message: '画像は5MB以下にしてください' }
  const bytes = new Uint8Array(await file.arrayBuffer())
  const ext = sniffImageType(bytes)
  if (!ext) return { ok: false, message: '画像は PNG・JPEG・WebP のいずれかにしてください' }
  const resized = await resizeImage(bytes, CLASS_IMAGE_MAX_PX, crop)
  if (!resized) return { ok: false, message: '画像を読み込めませんでした。別の画像でお試しください' }
  return { ok: true, url: await storeImage('classes', resized, store) }
}

/** Longest side of a stored class image (the detail page shows it at most ~1200 px wide on retina phones). */
export const CLASS_IMAGE_MAX_PX = 1600
/** Longest side of a stored avatar (shown at most 128 px). */
export const AVATAR_MAX_PX = 512

/**
 * Re-encodes an image as WebP that fits in `maxPx` × `maxPx` (never enlarged), upright, without metadata; with
 * `crop`, only that part of the upright picture.
 * Undefined when the bytes are not a decodable image. sharp is loaded on first use only.
 */
export async function resizeImage(
  bytes: Uint8Array,
  maxPx: number,
  crop?: ImageCrop,
): Promise<Uint8Array | undefined> {
  const { default: sharp } = await import('sharp')
  try {
    let image = sharp(bytes, { limitInputPixels: 40_000_000 }).rotate()
    if (crop) {
      // The crop is in percent of the upright picture (what the browser showed): turn it upright first.
      const upright = await sharp(await image.toBuffer()).metadata()
      const w = upright.width ?? 0
      const h = upright.height ?? 0
      const left = Math.min(Math.max(0, Math.round((crop.x / 100) * w)), w - 1)
      const top = Math.min(Math.max(0, Math.round((crop.y / 100) * h)), h - 1)
      const width = Math.max(1, Math.min(w - left, Math.round((crop.width / 100) * w)))
      const height = Math.max(1, Math.min(h - top, Math.round((crop.height / 100) * h)))
      image = sharp(await image.toBuffer()).extract({ left, top, width, height })
    }
    const out = await image
      .resize({ width: maxPx, height: maxPx, fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 82 })
      .toBuffer()
    return new Uint8Array(out)
  } catch {
    return undefined
  }
}

/** Stores an image under a new random name in `<dir>/` and returns its public URL. */
export async function storeImage(
  dir: 'classes' | 'avatars',
  webp: Uint8Array,
  store: UploadStore = getUploadStore(),
): Promise<string> {
  const path = `${dir}/${randomBytes(16).toString('hex')}.webp`
  await store.put(path, 'image/webp', webp)
  return `/uploads/${path}`
}

/**
 * A stored upload by its path under /uploads/, or undefined (bad name, nothing stored). Throws when the store
 * cannot be reached (the route answers 503). The type comes from the name, never from what was stored.
 */
export async function readUpload(
  path: string,
  store: UploadStore = getUploadStore(),
): Promise<{ bytes: Uint8Array; type: string } | undefined> {
  if (!STORED_NAME.test(path)) return undefined
  const type = contentTypeOf(path)
  if (!type) return undefined
  const found = await store.get(path)
  return found && { bytes: found.bytes, type }
}

/**
 * A smaller width of an uploaded image (`classes/<name>-w640.webp`, app/lib/responsive-image.ts): from the store,
 * or made from the original on its first request and stored for the next (every instance shares it). Only the
 * widths the pages ask for exist, so no one can make the server store sizes of their choosing.
 */
async function readVariant(
  path: string,
  store: UploadStore,
): Promise<{ bytes: Uint8Array; type: string } | undefined> {
  const variant = parseVariant(path)
  if (!variant) return undefined
  const stored = await store.get(path)
  if (stored) return { bytes: stored.bytes, type: 'image/webp' }
  const original = await readUpload(variant.original, store)
  if (!original) return undefined
  const bytes = await resizeImage(original.bytes, variant.width)
  if (!bytes) return undefined
  // Two instances may make it at once: the second write loses, and both answer the same image.
  await store.put(path, 'image/webp', bytes).catch(() => {})
  // A release (0035, 0038) deletes the original before its widths: one that ran while this width was being made
  // may have missed it, so a width whose original is gone by now goes too (else it would outlive the photo).
  try {
    if (!(await store.get(variant.original))) {
      await store.delete(path)
      return undefined
    }
  } catch (err) {
    // The bytes are in hand: answer them; the width stays until its original's next release deletes it.
    console.warn(
      '[uploads] could not check the original of a new width:',
      err instanceof Error ? err.message : err,
    )
  }
  return { bytes, type: 'image/webp' }
}

/**
 * The answer of GET /uploads/<path>: the image with a year-long immutable cache (names are random and never
 * reused), 404 for an unknown name, 503 with Retry-After when the store cannot be reached.
 */
export async function uploadResponse(path: string, store: UploadStore = getUploadStore()): Promise<Response> {
  let file: Awaited<ReturnType<typeof readUpload>>
  try {
    file = parseVariant(path) ? await readVariant(path, store) : await readUpload(path, store)
  } catch (err) {
    console.error('[uploads] store unavailable:', err instanceof Error ? err.message : err)
    return new Response('Service Unavailable', {
      status: 503,
      headers: {
        'Content-Type': 'text/plain',
        'Cache-Control': 'no-store',
        'Retry-After': String(DATABASE_RETRY_AFTER_S),
      },
    })
  }
  if (!file) return new Response('Not Found', { status: 404, headers: { 'Content-Type': 'text/plain' } })
  return new Response(file.bytes as Uint8Array<ArrayBuffer>, {
    headers: {
      'Content-Type': file.type,
      'Content-Length': String(file.bytes.byteLength),
      'Cache-Control': 'public, max-age=31536000, immutable',
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': "default-src 'none'",
    },
  })
}
