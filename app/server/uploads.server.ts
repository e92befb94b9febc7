import '@tanstack/react-start/server-only'
import { randomBytes } from 'node:crypto'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { contentTypeOf, MAX_IMAGE_BYTES, sniffImageType } from '~/lib/image-type'
import { getConfig } from './config'

/**
 * Uploaded images live under `${DATA_DIR}/uploads/` — class images in `classes/` (saved here), avatars in
 * `avatars/` (avatar-upload.server.ts) — with random names, and are all served by the `/uploads/$` server route.
 * Class images: stored as uploaded. No image library is installed, so images are NOT resized (see the report in
 * docs/decisions/0007-teacher-tools.md); the 5 MB limit and the type check by content still apply.
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
  const name = `${randomBytes(16).toString('hex')}.${ext}`
  const dir = join(uploadsRoot(), 'classes')
  await mkdir(dir, { recursive: true })
  await writeFile(join(dir, name), bytes, { flag: 'wx' })
  return { ok: true, url: `/uploads/classes/${name}` }
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
