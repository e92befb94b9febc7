import { and, eq } from 'drizzle-orm'
import type { Tx } from '../../db/client'
import { classImages } from '../../db/schema'
import { enqueue, RELEASE_MAX_ATTEMPTS } from '../../jobs/queue.server'
import { invalidRequest } from '../errors'

/**
 * Uploaded class images have an owner and an end (docs/decisions/0035). An image goes on a class only if its
 * teacher uploaded it: a photo of another teacher (or of their pupils) cannot be shown under someone else's
 * class. When no class shows it any more (replaced, removed, the class deleted or taken down by an operator) the
 * `class_images.release` job deletes it from the store, so its address stops answering.
 */

export const CLASS_IMAGE_RELEASE_KIND = 'class_images.release'

const UPLOADED = /^\/uploads\/(classes\/[a-f0-9]{32}\.(?:png|jpg|webp))$/

/** The store path of an uploaded class image's URL (`classes/<hex>.webp`); undefined for a bundled image or none. */
export function uploadedClassImagePath(url: string | null | undefined): string | undefined {
  return url ? UPLOADED.exec(url)?.[1] : undefined
}

/**
 * Refuses an uploaded image the teacher did not upload (400 on `image_url`), unless the class already shows it.
 * The ownership row is locked FOR SHARE, so a release running now either sees this class show it or has already
 * deleted it (then this write is refused). Taken after the class lock (docs/decisions/0015).
 */
export async function requireOwnClassImage(
  tx: Tx,
  userId: number,
  url: string | null | undefined,
  currentUrl?: string | null,
): Promise<void> {
  const path = uploadedClassImagePath(url)
  if (!path || url === currentUrl) return
  const [own] = await tx
    .select({ path: classImages.path })
    .from(classImages)
    .where(and(eq(classImages.path, path), eq(classImages.ownerId, userId)))
    .for('share')
  if (!own)
    throw invalidRequest('入力内容に誤りがあります', [
      { path: ['image_url'], message: 'この画像は使えません。もう一度アップロードしてください' },
    ])
}

/**
 * A class stopped showing `url`: queue its deletion with the change (outbox). The job keeps it if another class
 * shows it by then, and always drops the class's share image made from it.
 */
export async function releaseClassImage(tx: Tx, url: string | null | undefined, classWorkId: number) {
  const path = uploadedClassImagePath(url)
  if (path)
    await enqueue(
      tx,
      CLASS_IMAGE_RELEASE_KIND,
      { path, class_work_id: classWorkId },
      { maxAttempts: RELEASE_MAX_ATTEMPTS },
    )
}
