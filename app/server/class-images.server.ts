import '@tanstack/react-start/server-only'
import { and, eq, lt, sql } from 'drizzle-orm'
import { z } from 'zod'
import { CLASS_IMAGE_RELEASE_KIND } from '~/api/services/class-images'
import { type Db, getDb } from '~/db/client'
import { classImages, classWorks } from '~/db/schema'
import { transaction } from '~/db/transaction'
import type { JobHandler } from '~/jobs/runner.server'
import { PermanentJobError } from '~/jobs/runner.server'
import { variantPathsOf } from '~/lib/responsive-image'
import { ogImagePath } from './og-image.server'
import { getUploadStore, type UploadStore } from './upload-store.server'

/**
 * The end of an uploaded class image (docs/decisions/0035; the rules are in app/api/services/class-images.ts).
 * Uploading records the teacher as its owner; the release job deletes an image no class shows any more, with the
 * smaller widths and share images made from it; an hourly sweep releases uploads that never reached a class.
 */

/** An upload no class has shown for this long was abandoned (the form was left): it is deleted. */
export const ABANDONED_CLASS_IMAGE_MS = 24 * 3600_000
export const CLASS_IMAGE_SWEEP_KIND = 'class_images.sweep'
export const CLASS_IMAGE_SWEEP_EVERY_MS = 3600_000

/** Records who uploaded a stored class image (`classes/<hex>.webp`). */
export async function recordClassImage(path: string, ownerId: number, db?: Db): Promise<void> {
  await (db ?? (await getDb())).insert(classImages).values({ path, ownerId })
}

/**
 * Deletes `path` unless a class shows it: first its ownership row (locked, so no class can take it up meanwhile),
 * then the stored files. A retry after a failed delete finds no row and no class and deletes again. The share
 * image of `classWorkId` made from it goes in any case; it is made again on demand if still wanted.
 */
export async function releaseClassImagePath(
  db: Db,
  path: string,
  classWorkId: number | undefined,
  store: UploadStore = getUploadStore(),
): Promise<'deleted' | 'kept'> {
  const url = `/uploads/${path}`
  const kept = await transaction(db, async (tx) => {
    await tx
      .select({ path: classImages.path })
      .from(classImages)
      .where(eq(classImages.path, path))
      .for('update')
    const [shown] = await tx
      .select({ id: classWorks.id })
      .from(classWorks)
      .where(eq(classWorks.imageUrl, url))
      .limit(1)
    if (shown) return true
    await tx.delete(classImages).where(eq(classImages.path, path))
    return false
  })
  const files = kept ? [] : [path, ...variantPathsOf(path)]
  if (classWorkId !== undefined) files.push(ogImagePath(classWorkId, url))
  for (const file of files) await store.delete(file)
  return kept ? 'kept' : 'deleted'
}

/** Releases the uploads older than ABANDONED_CLASS_IMAGE_MS that no class shows (at most `limit` a run). */
export async function sweepAbandonedClassImages(
  db: Db,
  now: Date,
  store: UploadStore = getUploadStore(),
  limit = 200,
): Promise<number> {
  const abandoned = await db
    .select({ path: classImages.path })
    .from(classImages)
    .where(
      and(
        lt(classImages.createdAt, new Date(now.getTime() - ABANDONED_CLASS_IMAGE_MS)),
        sql`not exists (select 1 from ${classWorks} where ${classWorks.imageUrl} = '/uploads/' || ${classImages.path})`,
      ),
    )
    .orderBy(classImages.createdAt)
    .limit(limit)
  let deleted = 0
  for (const { path } of abandoned)
    if ((await releaseClassImagePath(db, path, undefined, store)) === 'deleted') deleted++
  return deleted
}

const ReleasePayload = z.object({
  path: z.string().regex(/^classes\/[a-f0-9]{32}\.(png|jpg|webp)$/),
  class_work_id: z.number().int().positive().optional(),
})

export const classImageHandlers = (
  store: () => UploadStore = getUploadStore,
): Record<string, JobHandler> => ({
  [CLASS_IMAGE_RELEASE_KIND]: async (job, { db }) => {
    const payload = ReleasePayload.safeParse(job.payload)
    if (!payload.success) throw new PermanentJobError('bad class image release payload')
    await releaseClassImagePath(db, payload.data.path, payload.data.class_work_id, store())
  },
  [CLASS_IMAGE_SWEEP_KIND]: async (_job, { db }) => {
    await sweepAbandonedClassImages(db, new Date(), store())
  },
})
