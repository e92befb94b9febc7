import '@tanstack/react-start/server-only'
import { avatarFileProblem } from '~/lib/avatar-rules'
import { sniffImageType } from '~/lib/image-type'
import { getUploadStore, type UploadStore } from './upload-store.server'
import { AVATAR_MAX_PX, resizeImage, storeImage } from './uploads.server'

/**
 * Avatars are stored under `avatars/` in the shared upload store with a random name
 * (docs/decisions/0009-learner-journey.md), served by the `/uploads/$` server route. The declared type and the
 * first bytes must both be an image; uploads.server.ts re-encodes it (512 px, WebP). Who uploaded it and when it
 * goes: avatar-images.server.ts (0038).
 */

export type AvatarSaveResult = { ok: true; url: string } | { ok: false; message: string }

export async function saveAvatar(
  file: File,
  store: UploadStore = getUploadStore(),
): Promise<AvatarSaveResult> {
  const problem = avatarFileProblem(file)
  if (problem) return { ok: false, message: problem }
  const bytes = new Uint8Array(await file.arrayBuffer())
  const ext = sniffImageType(bytes)
  if (!ext) return { ok: false, message: '画像は PNG・JPEG・WebP のいずれかにしてください' }
  const resized = await resizeImage(bytes, AVATAR_MAX_PX)
  if (!resized) return { ok: false, message: '画像を読み込めませんでした。別の画像でお試しください' }
  return { ok: true, url: await storeImage('avatars', resized, store) }
}
