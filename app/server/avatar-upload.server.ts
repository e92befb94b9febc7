import { variantPathsOf } from '~/lib/responsive-image'
import '@tanstack/react-start/server-only'
import { AVATAR_PATH, avatarFileProblem } from '~/lib/avatar-rules'
import { sniffImageType } from '~/lib/image-type'
import { getUploadStore, type UploadStore } from './upload-store.server'
import { AVATAR_MAX_PX, resizeImage, storeImage } from './uploads.server'

/**
 * Avatars are stored under `avatars/` in the shared upload store with a random name
 * (docs/decisions/0009-learner-journey.md), served by the `/uploads/$` server route. The declared type and the
 * first bytes must both be an image; uploads.server.ts re-encodes it (512 px, WebP).
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

/** Removes an avatar this server stored (after the profile points elsewhere); anything else is left alone. */
/** Best effort: a failure leaves an unreferenced image behind, never fails the profile change. */
export async function removeAvatar(
  url: string | null | undefined,
  store: UploadStore = getUploadStore(),
): Promise<void> {
  const path = url?.replace(/^\/uploads\//, '')
  if (!path || !AVATAR_PATH.test(path)) return
  // The smaller widths made from it go with it: an old photo must not stay reachable under another name.
  for (const p of [path, ...variantPathsOf(path)]) {
    await store.delete(p).catch((err) => {
      console.warn('[uploads] could not remove an old avatar:', err instanceof Error ? err.message : err)
    })
  }
}
