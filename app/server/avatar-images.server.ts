import '@tanstack/react-start/server-only'
import { and, eq, lt, sql } from 'drizzle-orm'
import { z } from 'zod'
import { AVATAR_RELEASE_KIND } from '~/api/services/avatar-images'
import { type Db, getDb } from '~/db/client'
import { avatarImages, users } from '~/db/schema'
import { transaction } from '~/db/transaction'
import type { JobHandler } from '~/jobs/runner.server'
import { PermanentJobError } from '~/jobs/runner.server'
import { AVATAR_PATH } from '~/lib/avatar-rules'
import { variantPathsOf } from '~/lib/responsive-image'
import { getUploadStore, type UploadStore } from './upload-store.server'

/**
 * The end of an uploaded avatar (docs/decisions/0038; the rules are in app/api/services/avatar-images.ts).
 * Uploading records the member as its owner; the release job deletes an avatar its owner no longer shows, with
 * the smaller widths made from it; an hourly sweep releases uploads that never reached a profile.
 */

/** An upload its owner has not shown for this long was abandoned (the profile change never ran): it is deleted. */
export const ABANDONED_AVATAR_MS = 24 * 3600_000
export const AVATAR_SWEEP_KIND = 'avatar_images.sweep'
export const AVATAR_SWEEP_EVERY_MS = 3600_000

/** Records who uploaded a stored avatar (`avatars/<hex>.webp`). */
export async function recordAvatarImage(path: string, ownerId: number, db?: Db): Promise<void> {
  await (db ?? (await getDb())).insert(avatarImages).values({ path, ownerId })
}

/** Only its owner may show an avatar (0038), so whether it is shown is one primary-key probe, never a scan. */
const shownByOwner = sql`exists (select 1 from ${users} where ${users.id} = ${avatarImages.ownerId} and ${users.avatarUrl} = '/uploads/' || ${avatarImages.path})`

/**
 * Deletes `path` unless its owner shows it: first its ownership row (locked, so the owner cannot take it up
 * meanwhile), then the stored files. A retry after a failed delete finds no row and deletes again.
 */
export async function releaseAvatarPath(
  db: Db,
  path: string,
  store: UploadStore = getUploadStore(),
): Promise<'deleted' | 'kept'> {
  const kept = await transaction(db, async (tx) => {
    await tx
      .select({ path: avatarImages.path })
      .from(avatarImages)
      .where(eq(avatarImages.path, path))
      .for('update')
    // A statement of its own, after the lock: its snapshot sees the write that held the row until it committed
    // (one statement would judge with a snapshot taken before the wait).
    const [row] = await tx
      .select({ shown: sql<boolean>`${shownByOwner}` })
      .from(avatarImages)
      .where(eq(avatarImages.path, path))
    if (row?.shown) return true
    await tx.delete(avatarImages).where(eq(avatarImages.path, path))
    return false
  })
  if (kept) return 'kept'
  for (const file of [path, ...variantPathsOf(path)]) await store.delete(file)
  return 'deleted'
}

/** Releases the uploads older than ABANDONED_AVATAR_MS that their owner does not show (at most `limit` a run). */
export async function sweepAbandonedAvatars(
  db: Db,
  now: Date,
  store: UploadStore = getUploadStore(),
  limit = 200,
): Promise<number> {
  const abandoned = await db
    .select({ path: avatarImages.path })
    .from(avatarImages)
    .where(
      and(
        lt(avatarImages.createdAt, new Date(now.getTime() - ABANDONED_AVATAR_MS)),
        sql`not ${shownByOwner}`,
      ),
    )
    .orderBy(avatarImages.createdAt)
    .limit(limit)
  let deleted = 0
  for (const { path } of abandoned) if ((await releaseAvatarPath(db, path, store)) === 'deleted') deleted++
  return deleted
}

const ReleasePayload = z.object({ path: z.string().regex(AVATAR_PATH) })

export const avatarImageHandlers = (
  store: () => UploadStore = getUploadStore,
): Record<string, JobHandler> => ({
  [AVATAR_RELEASE_KIND]: async (job, { db }) => {
    const payload = ReleasePayload.safeParse(job.payload)
    if (!payload.success) throw new PermanentJobError('bad avatar release payload')
    await releaseAvatarPath(db, payload.data.path, store())
  },
  [AVATAR_SWEEP_KIND]: async (_job, { db }) => {
    await sweepAbandonedAvatars(db, new Date(), store())
  },
})
