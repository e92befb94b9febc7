import '@tanstack/react-start/server-only'
import { randomBytes } from 'node:crypto'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { contentTypeOf, MAX_IMAGE_BYTES, sniffImageType } from '~/lib/image-type'
import { getConfig } from './config'

/**
 * Uploaded images live under `${DATA_DIR}/uploads/` — class images in `classes/` (saved here), avatars in
 * `avatars/` (avatar-upload.server.ts) — with random names, and are all served by the `/uploads/$` server route.
 * Every image is type-checked by its first bytes, then re-encoded with sharp: turned upright, shrunk to fit its
 * use, metadata (camera location!) dropped, stored as WebP.
 */

const uploadsRoot = () => resolve(getConfig().dataDir, 'uploads')
const STORED_NAME = /^(classes|avatars)\/[a-f0-9]{32}\.(png|jpg|webp)$/

export type UploadResult = { ok: true; url: string } | { ok: false; message: string }

export async function saveClassImage(file: File): Promise<UploadResult> {
  if (file.size === 0) return { ok: false, message: '画像ファイルを選択してください' }
  if (file.size > MAX_IMAGE_BYTES) return { ok: false, message: '画像は5MB以下にしてください' }
  const bytes = new Uint8Array(await file.arrayBuffer())
  const ext = sniffImageType(bytes)
  if (!ext) return { ok: false, message: '画像は PNG・JPEG・WebP のいずれかにしてください' }
  const resized = await resizeImage(bytes, CLASS_IMAGE_MAX_PX)
  if (!resized) return { ok: false, message: '画像を読み込めませんでした。別の画像でお試しください' }
  return { ok: true, url: await storeImage('classes', resized) }
}

/** Longest side of a stored class image (the detail page shows it at most ~1200 px wide on retina phones). */
export const CLASS_IMAGE_MAX_PX = 1600
/** Longest side of a stored avatar (shown at most 128 px). */
export const AVATAR_MAX_PX = 512

/**
 * Re-encodes an image as WebP that fits in `maxPx` × `maxPx` (never enlarged), upright, without metadata.
 * Undefined when the bytes are not a decodable image. sharp is loaded on first use only.
 */
export async function resizeImage(bytes: Uint8Array, maxPx: number): Promise<Uint8Array | undefined> {
  const { default: sharp } = await import('sharp')
  try {
    const out = await sharp(bytes, { limitInputPixels: 40_000_000 })
      .rotate()
      .resize({ width: maxPx, height: maxPx, fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 82 })
      .toBuffer()
    return new Uint8Array(out)
  } catch {
    return undefined
  }
}

/** Writes an image under a new random name in `uploads/<dir>/` and returns its public URL. */
export async function storeImage(dir: 'classes' | 'avatars', webp: Uint8Array): Promise<string> {
  const name = `${randomBytes(16).toString('hex')}.webp`
  const folder = join(uploadsRoot(), dir)
  await mkdir(folder, { recursive: true })
  await writeFile(join(folder, name), webp, { flag: 'wx' })
  return `/uploads/${dir}/${name}`
}

/** A stored upload by its path under /uploads/, or undefined (bad name, missing file). */
export async function readUpload(path: string): Promise<{ bytes: Uint8Array; type: string } | undefined> {
  if (!STORED_NAME.test(path)) return undefined
  const type = contentTypeOf(path)
  if (!type) return undefined
  try {
    return { bytes: new Uint8Array(await readFile(join(uploadsRoot(), path))), type }
  } catch {
    return undefined
  }
}
