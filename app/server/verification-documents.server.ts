import '@tanstack/react-start/server-only'
import { randomBytes } from 'node:crypto'
import { and, eq, inArray, isNotNull, isNull, lt, or } from 'drizzle-orm'
import { DOCUMENT_RETENTION_MS } from '~/api/services/verifications'
import { VERIFICATION_PATH } from '~/contract/v1/trust'
import { audit } from '~/db/audit'
import { type Db, getDb } from '~/db/client'
import { teacherVerifications } from '~/db/schema'
import { enqueue } from '~/jobs/queue.server'
import { type JobHandler, PermanentJobError } from '~/jobs/runner.server'
import { MAX_IMAGE_BYTES, sniffImageType } from '~/lib/image-type'
import { refuseImageUploadOverLimit } from './upload-limit.server'
import { getUploadStore, type UploadStore } from './upload-store.server'

/**
 * The two images of an identity verification (本人確認): a face photo and an identity document. Stored in the
 * shared upload store under `verifications/` — a prefix the public /uploads route never serves — re-encoded
 * (upright, metadata such as the camera's location dropped, WebP), read only by operators through an audited
 * route, and deleted 30 days after the decision by the `verifications.purge` job (docs/decisions/0020).
 */

/** Large enough to read a document's small print; an operator zooms in. */
const DOCUMENT_MAX_PX = 2000

/** Job that deletes a submission's images if no verification came to point at them (a lost answer, a crash). */
export const VERIFICATION_UPLOAD_CHECK_KIND = 'verifications.upload_check'
/** Long after any API call of the submission has ended, however it ended. */
export const VERIFICATION_UPLOAD_CHECK_DELAY_MS = 3600_000

export type DocumentSaveResult = { ok: true; path: string } | { ok: false; message: string }

const newVerificationPath = () => `verifications/${randomBytes(16).toString('hex')}.webp`

export async function saveVerificationImage(
  file: File,
  label: string,
  store: UploadStore = getUploadStore(),
  path: string = newVerificationPath(),
): Promise<DocumentSaveResult> {
  if (file.size === 0) return { ok: false, message: `${label}を選択してください` }
  if (file.size > MAX_IMAGE_BYTES) return { ok: false, message: `${label}は5MB以下にしてください` }
  const bytes = new Uint8Array(await file.arrayBuffer())
  if (!sniffImageType(bytes))
    return { ok: false, message: `${label}は PNG・JPEG・WebP のいずれかにしてください` }
  const { default: sharp } = await import('sharp')
  let webp: Uint8Array
  try {
    webp = new Uint8Array(
      await sharp(bytes, { limitInputPixels: 40_000_000 })
        .rotate()
        .resize({ width: DOCUMENT_MAX_PX, height: DOCUMENT_MAX_PX, fit: 'inside', withoutEnlargement: true })
        .webp({ quality: 85 })
        .toBuffer(),
    )
  } catch {
    return { ok: false, message: `${label}を読み込めませんでした。別の画像でお試しください` }
  }
  await store.put(path, 'image/webp', webp)
  return { ok: true, path }
}

/**
 * Saves the face photo and the document, then hands their paths to `submit` (the API call). An identity document
 * that no verification row points at would never be purged (0020), so whatever goes wrong after a save — the
 * second image unreadable, the store failing, or `submit` answering `keep: false` (refused) — deletes the images
 * already saved. A failure that leaves it unknown whether the API saved the row (a timeout, an answer lost: the
 * API may still be committing it) keeps them; the check job queued before the first byte was stored deletes them
 * an hour later if no verification points at them. That job also covers a process killed between save and submit.
 */
export async function submitWithDocuments<T>(
  memberId: number,
  face: File,
  document: File,
  submit: (paths: { face_path: string; document_path: string }) => Promise<{ result: T; keep: boolean }>,
  deps: { db?: Db; store?: UploadStore } = {},
): Promise<
  | { ok: true; result: T }
  | { ok: false; status: 400; field: 'face' | 'document'; message: string }
  | { ok: false; status: 429; message: string; retryAfterS: number }
> {
  const db = deps.db ?? (await getDb())
  const store = deps.store ?? getUploadStore()
  // Both images are decoded and re-encoded: each counts as an upload, before any byte is read.
  const limited = await refuseImageUploadOverLimit(memberId, db, 2)
  if (limited) return { ok: false, status: 429, ...limited }
  const paths = { face: newVerificationPath(), document: newVerificationPath() }
  // Durable before anything is stored: whatever happens to this process after a save, the images are checked.
  await enqueue(
    db,
    VERIFICATION_UPLOAD_CHECK_KIND,
    { paths: [paths.face, paths.document] },
    {
      runAt: new Date(Date.now() + VERIFICATION_UPLOAD_CHECK_DELAY_MS),
      dedupeKey: `verification-upload:${paths.face}`,
    },
  )
  const saved: string[] = []
  const drop = () => Promise.all(saved.map((p) => store.delete(p).catch(() => {})))
  try {
    const faceSaved = await saveVerificationImage(face, '顔写真', store, paths.face)
    if (!faceSaved.ok) return { ok: false, status: 400, field: 'face', message: faceSaved.message }
    saved.push(faceSaved.path)
    const documentSaved = await saveVerificationImage(document, '本人確認書類の画像', store, paths.document)
    if (!documentSaved.ok) {
      await drop()
      return { ok: false, status: 400, field: 'document', message: documentSaved.message }
    }
    saved.push(documentSaved.path)
    let answer: { result: T; keep: boolean }
    try {
      answer = await submit({ face_path: faceSaved.path, document_path: documentSaved.path })
    } catch (error) {
      // The API may have saved the row, or may still be saving it (a timeout): a pending verification must not
      // lose its documents. Kept; the check job deletes them later if no verification points at them.
      saved.length = 0
      throw error
    }
    if (!answer.keep) await drop()
    return { ok: true, result: answer.result }
  } catch (error) {
    await drop()
    throw error
  }
}

/**
 * The check queued with a submission: its images go unless a verification points at them (or did: a purged one
 * has no paths, and its images are gone already).
 */
export function verificationUploadCheckHandler(
  store: () => UploadStore = getUploadStore,
): Record<string, JobHandler> {
  return {
    [VERIFICATION_UPLOAD_CHECK_KIND]: async (job, { db }) => {
      const paths = (job.payload as { paths?: unknown }).paths
      if (!Array.isArray(paths) || !paths.every((p) => typeof p === 'string' && VERIFICATION_PATH.test(p)))
        throw new PermanentJobError('bad verification upload check payload')
      if (await referencedByVerification(db, paths)) return
      for (const p of paths) await store().delete(p)
    },
  }
}

/** Whether any verification row points at one of these stored paths. */
async function referencedByVerification(db: Db, paths: string[]): Promise<boolean> {
  if (paths.length === 0) return false
  const [row] = await db
    .select({ id: teacherVerifications.id })
    .from(teacherVerifications)
    .where(
      or(inArray(teacherVerifications.facePath, paths), inArray(teacherVerifications.documentPath, paths)),
    )
    .limit(1)
  return row !== undefined
}

/** The stored image at a verification path (the caller has had the API authorise and audit the read). */
export async function readVerificationImage(
  path: string,
  store: UploadStore = getUploadStore(),
): Promise<Uint8Array | undefined> {
  if (!VERIFICATION_PATH.test(path)) return undefined
  return (await store.get(path))?.bytes
}

/**
 * Deletes the images of every decision older than the retention, then forgets their paths (and records it in
 * the audit log). An image that fails to delete keeps its row as it was, so the next run tries again.
 */
export async function purgeVerificationDocuments(
  db: Db,
  now: Date,
  store: UploadStore = getUploadStore(),
): Promise<number> {
  const due = await db
    .select({
      id: teacherVerifications.id,
      facePath: teacherVerifications.facePath,
      documentPath: teacherVerifications.documentPath,
    })
    .from(teacherVerifications)
    .where(
      and(
        isNull(teacherVerifications.documentsDeletedAt),
        isNotNull(teacherVerifications.decidedAt),
        lt(teacherVerifications.decidedAt, new Date(now.getTime() - DOCUMENT_RETENTION_MS)),
      ),
    )
    .limit(200)
  let purged = 0
  for (const row of due) {
    for (const path of [row.facePath, row.documentPath]) if (path) await store.delete(path)
    await db.transaction(async (tx) => {
      await tx
        .update(teacherVerifications)
        .set({ facePath: null, documentPath: null, documentsDeletedAt: now })
        .where(eq(teacherVerifications.id, row.id))
      await audit(tx, {
        actorLabel: 'system',
        action: 'documents_purge',
        targetType: 'teacher_verification',
        targetId: row.id,
        after: { deleted: [row.facePath, row.documentPath].filter(Boolean).length },
      })
    })
    purged++
  }
  return purged
}

/** The purge runs hourly on whichever instance takes it; the clock is the job's. */
export const VERIFICATION_PURGE_EVERY_MS = 3600_000
