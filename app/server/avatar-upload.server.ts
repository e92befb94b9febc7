import '@tanstack/react-start/server-only'
import { randomBytes } from 'node:crypto'
import { mkdir, unlink, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { AVATAR_PATH, avatarFileProblem } from '~/lib/avatar-rules'
import { sniffImageType } from '~/lib/image-type'
import { getConfig } from './config'

/**
 * Avatars are files under `${DATA_DIR}/uploads/avatars/` with a random name (docs/decisions/0009-learner-journey.md),
 * served by the `/uploads/$` server route (uploads.server.ts reads them). The declared type and the first bytes must both be an image.
 */
const avatarsDir = () => resolve(getConfig().dataDir, 'uploads', 'avatars')

export type AvatarSaveResult = { ok: true; url: string } | { ok: false; message: string }

export async function saveAvatar(file: File): Promise<AvatarSaveResult> {
  const problem = avatarFileProblem(file)
  if (problem) return { ok: false, message: problem }
  const bytes = new Uint8Array(await file.arrayBuffer())
  const ext = sniffImageType(bytes)
  if (!ext) return { ok: false, message: '画像は PNG・JPEG・WebP のいずれかにしてください' }
  const name = `${randomBytes(16).toString('hex')}.${ext}`
  await mkdir(avatarsDir(), { recursive: true })
  await writeFile(join(avatarsDir(), name), bytes, { flag: 'wx' })
  return { ok: true, url: `/uploads/avatars/${name}` }
}

/** Removes an avatar this server stored (after the profile points elsewhere); anything else is left alone. */
export async function removeAvatar(url: string | null | undefined): Promise<void> {
  const path = url?.replace(/^\/uploads\//, '')
  if (!path || !AVATAR_PATH.test(path)) return
  await unlink(join(avatarsDir(), path.slice('avatars/'.length))).catch(() => {})
}
