import { and, eq } from 'drizzle-orm'
import type { Tx } from '../../db/client'
import { avatarImages } from '../../db/schema'
import { enqueue, RELEASE_MAX_ATTEMPTS } from '../../jobs/queue.server'
import { invalidRequest } from '../errors'

/**
 * Uploaded avatars have an owner and an end (docs/decisions/0038), as class images do (0035). A member shows only
 * a photo they uploaded themselves: another member's face cannot be shown under their name. When they stop
 * showing it (replaced or removed) the `avatar_images.release` job deletes it from the store.
 */

export const AVATAR_RELEASE_KIND = 'avatar_images.release'

const UPLOADED = /^\/uploads\/(avatars\/[a-f0-9]{32}\.(?:png|jpg|webp))$/

/** The store path of an uploaded avatar's URL (`avatars/<hex>.webp`); undefined for a bundled image or none. */
export function uploadedAvatarPath(url: string | null | undefined): string | undefined {
  return url ? UPLOADED.exec(url)?.[1] : undefined
}

/**
 * Refuses an uploaded avatar the member did not upload (400 on `avatar_url`). The ownership row is locked FOR
 * SHARE, so a release running now either sees the member show it or has already deleted it (then this write is
 * refused). Taken after the member's own row lock.
 */
export async function requireOwnAvatar(tx: Tx, userId: number, url: string | null | undefined) {
  const path = uploadedAvatarPath(url)
  if (!path) return
  const [own] = await tx
    .select({ path: avatarImages.path })
    .from(avatarImages)
    .where(and(eq(avatarImages.path, path), eq(avatarImages.ownerId, userId)))
    .for('share')
  if (!own)
    throw invalidRequest('入力内容に誤りがあります', [
      { path: ['avatar_url'], message: 'この画像は使えません。もう一度アップロードしてください' },
    ])
}

/** A member stopped showing `url`: queue its deletion with the change (outbox: a refused write queues nothing). */
export async function releaseAvatar(tx: Tx, url: string | null | undefined) {
  const path = uploadedAvatarPath(url)
  if (path) await enqueue(tx, AVATAR_RELEASE_KIND, { path }, { maxAttempts: RELEASE_MAX_ATTEMPTS })
}
