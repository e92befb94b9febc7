/**
 * Uploaded class images have an owner and an end (docs/decisions/0035): only the uploader may put one on a class,
 * and an image no class shows any more — replaced, the class deleted or taken down, or never used — is deleted
 * from the store by a job queued with the change, so its address answers 404. Runs on PGlite, and on PostgreSQL
 * with TEST_DATABASE_URL: the races between a release and a teacher taking the image up again mean something only
 * there (PGlite has one connection, so the release simply runs after the other transaction).
 */
import { and, eq, like, or, sql } from 'drizzle-orm'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CLASS_IMAGE_RELEASE_KIND, requireOwnClassImage } from '../../app/api/services/class-images'
import { rowsOf } from '../../app/db/rows'
import { classImages, classWorks, jobs, uploads, users } from '../../app/db/schema'
import { PermanentJobError, startJobRunner } from '../../app/jobs/runner.server'
import {
  CLASS_IMAGE_SWEEP_KIND,
  classImageHandlers,
  recordClassImage,
  releaseClassImagePath,
  sweepAbandonedClassImages,
} from '../../app/server/class-images.server'
import { classShareImage, ogImagePath } from '../../app/server/og-image.server'
import { createDbUploadStore, type UploadStore } from '../../app/server/upload-store.server'
import { saveClassImage, uploadResponse } from '../../app/server/uploads.server'
import { setupApi, type TestApi } from './support/api'
import { loadMasters, type Masters, postClass } from './support/classes'
import { TEST_ISSUER } from './support/constants'
import { runQueuedJobs } from './support/jobs'
import { SUBS } from './support/tokens'

let api: TestApi
let store: UploadStore
let masters: Masters

beforeAll(async () => {
  api = await setupApi()
  store = createDbUploadStore(async () => api.db)
  masters = await loadMasters(api)
})
afterAll(async () => {
  await api?.close()
})

/** What uploadClassImage does: store the re-encoded picture and record its uploader. */
async function upload(sub: string): Promise<{ url: string; path: string }> {
  const png = await sharp({ create: { width: 800, height: 500, channels: 3, background: '#3a7bd5' } })
    .png()
    .toBuffer()
  const saved = await saveClassImage(new File([new Uint8Array(png)], 'p.png', { type: 'image/png' }), store)
  if (!saved.ok) throw new Error(saved.message)
  const path = saved.url.slice('/uploads/'.length)
  await recordClassImage(path, await api.userId(sub), api.db)
  return { url: saved.url, path }
}

const createClass = (sub: string, extra: Record<string, unknown> = {}) => postClass(api, masters, sub, extra)

const served = async (path: string) => (await uploadResponse(path, store)).status

const runReleases = (path: string) =>
  runQueuedJobs(
    api,
    CLASS_IMAGE_RELEASE_KIND,
    classImageHandlers(() => store)[CLASS_IMAGE_RELEASE_KIND]!,
    path,
  )

const owned = async (path: string) =>
  (await api.db.select().from(classImages).where(eq(classImages.path, path))).length === 1

describe('who may put an uploaded image on a class', () => {
  it('the uploader may; another teacher may not (400 on image_url), and nothing is written', async () => {
    const mine = await upload(SUBS.teacher)
    const created = await createClass(SUBS.teacher, { image_url: mine.url })
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    expect(created.body.image_url).toBe(mine.url)

    const before = await api.count('class_works')
    const theirs = await createClass(SUBS.emily, { image_url: mine.url })
    expect(theirs.status).toBe(400)
    expect(theirs.body.code).toBe('invalid_request')
    expect(JSON.stringify(theirs.body)).toContain('この画像は使えません')
    expect(await api.count('class_works')).toBe(before)

    const own = await createClass(SUBS.emily)
    expect(own.status).toBe(201)
    const patch = await api.as(SUBS.emily, 'PATCH', `/v1/teachers/class_works/${own.body.id}`, {
      image_url: mine.url,
      title: '変わらないはず',
    })
    expect(patch.status).toBe(400)
    const [row] = await api.db.select().from(classWorks).where(eq(classWorks.id, own.body.id))
    expect([row!.imageUrl, row!.title]).toEqual([null, own.body.title])
  })

  it('an uploads address nobody recorded (made up, or already deleted) is refused', async () => {
    const res = await createClass(SUBS.teacher, { image_url: `/uploads/classes/${'ab'.repeat(16)}.webp` })
    expect(res.status).toBe(400)
  })

  it('a bundled picture needs no owner, and saving a class with its current image again is fine', async () => {
    const bundled = await createClass(SUBS.teacher, { image_url: '/images/classes/default.svg' })
    expect(bundled.status).toBe(201)
    const mine = await upload(SUBS.teacher)
    const created = await createClass(SUBS.teacher, { image_url: mine.url })
    // Ownership is gone (an image from before owners were recorded): the class keeps showing it when saved.
    await api.db.delete(classImages).where(eq(classImages.path, mine.path))
    const again = await api.as(SUBS.teacher, 'PATCH', `/v1/teachers/class_works/${created.body.id}`, {
      image_url: mine.url,
      title: '同じ画像で保存',
    })
    expect(again.status, JSON.stringify(again.body)).toBe(200)
  })
})

describe('an image no class shows is deleted', () => {
  it('a bundled picture has one share image for every class showing it, so deleting a class leaves none behind', async () => {
    const bundled = '/images/classes/default.svg'
    const a = (await createClass(SUBS.teacher, { image_url: bundled })).body.id as number
    const b = (await createClass(SUBS.teacher, { image_url: bundled })).body.id as number
    expect(ogImagePath(a, bundled)).toBe(ogImagePath(b, bundled))
    expect(ogImagePath(a, bundled)).toMatch(/^og\/bundled\/[0-9a-f]{16}\.png$/)
    const made = await classShareImage(a, bundled, store)
    expect(made?.byteLength).toBeGreaterThan(0)
    expect(await classShareImage(b, bundled, store)).toEqual(made)
    const perClass = await api.db
      .select({ path: uploads.path })
      .from(uploads)
      .where(or(like(uploads.path, `og/classes/${a}-%`), like(uploads.path, `og/classes/${b}-%`)))
    expect(perClass).toEqual([])
  })

  it('a share image made while its picture is being released goes with it (not kept for good)', async () => {
    const first = await upload(SUBS.teacher)
    const second = await upload(SUBS.teacher)
    const id = (await createClass(SUBS.teacher, { image_url: first.url })).body.id as number
    expect(
      (await api.as(SUBS.teacher, 'PATCH', `/v1/teachers/class_works/${id}`, { image_url: second.url }))
        .status,
    ).toBe(200)
    // A request for the share image read the class (still showing the first picture) and now reads the picture;
    // the release runs just after that read, before the share image is stored.
    let released = 0
    const racing: UploadStore = {
      ...store,
      async get(path) {
        const found = await store.get(path)
        if (path === first.path && released === 0) released = await runReleases(first.path)
        return found
      },
    }
    expect(await classShareImage(id, first.url, racing)).toBeUndefined()
    expect(released).toBe(1)
    expect(await store.get(ogImagePath(id, first.url))).toBeUndefined()
    // The class's current picture makes its share image as before, and keeps it.
    expect((await classShareImage(id, second.url, store))?.byteLength).toBeGreaterThan(0)
    expect(await store.get(ogImagePath(id, second.url))).toBeDefined()
  })

  it('replaced: the old picture, its smaller widths and its share image stop answering; the new one stays', async () => {
    const first = await upload(SUBS.teacher)
    const second = await upload(SUBS.teacher)
    const created = await createClass(SUBS.teacher, { image_url: first.url })
    const id = created.body.id as number
    const variant = first.path.replace('.webp', '-w640.webp')
    expect(await served(variant)).toBe(200) // made and kept on first request
    // Another spelling of that width is no address: a copy stored under it would outlive the release.
    expect(await served(first.path.replace('.webp', '-w0640.webp'))).toBe(404)
    const og = ogImagePath(id, first.url)
    await store.put(og, 'image/png', new Uint8Array([1, 2, 3]))

    const patch = await api.as(SUBS.teacher, 'PATCH', `/v1/teachers/class_works/${id}`, {
      image_url: second.url,
    })
    expect(patch.status).toBe(200)
    expect(await served(first.path)).toBe(200) // until the job runs
    expect(await runReleases(first.path)).toBe(1)
    expect(await served(first.path)).toBe(404)
    expect(await store.get(variant)).toBeUndefined()
    expect(await store.get(og)).toBeUndefined()
    expect(await owned(first.path)).toBe(false)
    expect(await served(second.path)).toBe(200)
    expect(await owned(second.path)).toBe(true)
    // Gone means gone: the teacher cannot put the deleted address back.
    const back = await api.as(SUBS.teacher, 'PATCH', `/v1/teachers/class_works/${id}`, {
      image_url: first.url,
    })
    expect(back.status).toBe(400)
  })

  it('removed (image_url null) and the class deleted: both release; a picture another class shows is kept', async () => {
    const shared = await upload(SUBS.teacher)
    const a = await createClass(SUBS.teacher, { image_url: shared.url })
    const b = await createClass(SUBS.teacher, { image_url: shared.url })
    expect(b.status).toBe(201)
    expect(
      (await api.as(SUBS.teacher, 'PATCH', `/v1/teachers/class_works/${a.body.id}`, { image_url: null }))
        .status,
    ).toBe(200)
    await runReleases(shared.path)
    expect(await served(shared.path)).toBe(200)
    expect(await owned(shared.path)).toBe(true)

    expect((await api.as(SUBS.teacher, 'DELETE', `/v1/teachers/class_works/${b.body.id}`)).status).toBe(200)
    expect(await runReleases(shared.path)).toBe(1)
    expect(await served(shared.path)).toBe(404)
    expect(await owned(shared.path)).toBe(false)
  })

  it('a write that fails queues nothing: a refused PATCH keeps the picture', async () => {
    const mine = await upload(SUBS.teacher)
    const created = await createClass(SUBS.teacher, { image_url: mine.url })
    const refused = await api.as(SUBS.teacher, 'PATCH', `/v1/teachers/class_works/${created.body.id}`, {
      image_url: null,
      price: -1,
    })
    expect(refused.status).toBe(400)
    expect(await runReleases(mine.path)).toBe(0)
    expect(await served(mine.path)).toBe(200)
  })

  it('an operator hiding a reported class takes its picture down too', async () => {
    const mine = await upload(SUBS.teacher)
    const created = await createClass(SUBS.teacher, { image_url: mine.url, is_published: true })
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    const filed = await api.as(SUBS.parent, 'POST', '/v1/reports', {
      target_type: 'class',
      target_id: created.body.id,
      reason: 'child_safety',
    })
    expect(filed.status, JSON.stringify(filed.body)).toBe(201)
    const resolved = await api.as(SUBS.operator, 'POST', `/v1/admin/reports/${filed.body.id}/resolve`, {
      action: 'hide',
    })
    expect(resolved.status, JSON.stringify(resolved.body)).toBe(200)
    const [row] = await api.db.select().from(classWorks).where(eq(classWorks.id, created.body.id))
    expect(row!.hiddenAt).not.toBeNull()
    expect(row!.imageUrl).toBeNull()
    expect(await runReleases(mine.path)).toBe(1)
    expect(await served(mine.path)).toBe(404)
  })
})

describe('the job and the sweep', () => {
  it('a release whose store delete fails is tried again and then deletes; a bad payload is not retried', async () => {
    const mine = await upload(SUBS.teacher)
    let failures = 1
    const flaky: UploadStore = {
      ...store,
      async delete(path) {
        if (failures-- > 0) throw new Error('store away')
        await store.delete(path)
      },
    }
    await expect(releaseClassImagePath(api.db, mine.path, undefined, flaky)).rejects.toThrow('store away')
    // The row went with the first attempt; the retry finds neither row nor class and deletes the files.
    expect(await owned(mine.path)).toBe(false)
    expect(await served(mine.path)).toBe(200)
    expect(await releaseClassImagePath(api.db, mine.path, undefined, flaky)).toBe('deleted')
    expect(await served(mine.path)).toBe(404)

    const handler = classImageHandlers(() => store)[CLASS_IMAGE_RELEASE_KIND]!
    for (const payload of [{}, { path: '../avatars/x.webp' }, { path: `avatars/${'a'.repeat(32)}.webp` }])
      await expect(handler({ id: 0, kind: '', payload, attempts: 1 }, { db: api.db })).rejects.toBeInstanceOf(
        PermanentJobError,
      )
  })

  it('a takedown outlasts a storage outage longer than the default attempts (the file has no row after the first)', async () => {
    const mine = await upload(SUBS.teacher)
    const created = await createClass(SUBS.teacher, { image_url: mine.url })
    const removed = await api.as(SUBS.teacher, 'PATCH', `/v1/teachers/class_works/${created.body.id}`, {
      image_url: null,
    })
    expect(removed.status).toBe(200)
    let failures = 20 // more than the 8 attempts a job gets by default
    const away: UploadStore = {
      ...store,
      async delete(path) {
        if (failures-- > 0) throw new Error('store away')
        await store.delete(path)
      },
    }
    const runner = startJobRunner({
      db: api.db,
      autoStart: false,
      backoffMs: () => 0,
      handlers: { [CLASS_IMAGE_RELEASE_KIND]: classImageHandlers(() => away)[CLASS_IMAGE_RELEASE_KIND]! },
    })
    const jobOf = async () =>
      (
        await api.db
          .select()
          .from(jobs)
          .where(and(eq(jobs.kind, CLASS_IMAGE_RELEASE_KIND), sql`${jobs.payload}->>'path' = ${mine.path}`))
      )[0]
    // A drain ends when a claim finds nothing due; on PostgreSQL one ended with the job just refused and due again
    // at once (as in notifications.test's relay restart). What this test is about is the file going in the end.
    for (let i = 0; i < 30 && !(await jobOf())?.finishedAt; i++) await runner.drain()
    const job = await jobOf()
    expect(job).toMatchObject({ failed: false })
    expect(job?.finishedAt).not.toBeNull()
    expect(await served(mine.path)).toBe(404)
  })

  it('uploads never put on a class are swept after a day; younger ones and shown ones stay', async () => {
    const abandoned = await upload(SUBS.teacher)
    const young = await upload(SUBS.teacher)
    const shown = await upload(SUBS.teacher)
    await createClass(SUBS.teacher, { image_url: shown.url })
    const dayAgo = new Date(Date.now() - 25 * 3600_000)
    for (const p of [abandoned.path, shown.path])
      await api.db.update(classImages).set({ createdAt: dayAgo }).where(eq(classImages.path, p))
    expect(await sweepAbandonedClassImages(api.db, new Date(), store)).toBeGreaterThanOrEqual(1)
    expect(await served(abandoned.path)).toBe(404)
    expect(await served(young.path)).toBe(200)
    expect(await served(shown.path)).toBe(200)
    expect(classImageHandlers()[CLASS_IMAGE_SWEEP_KIND]).toBeTypeOf('function')
  })
})

describe('a release and a teacher taking the picture up again, at once', () => {
  it('a release waits for a write that has checked the picture, then sees it shown (the ownership row lock)', async () => {
    const mine = await upload(SUBS.teacher)
    const created = await createClass(SUBS.teacher)
    const teacherId = await api.userId(SUBS.teacher)
    let release: Promise<'kept' | 'deleted'> | undefined
    await api.db.transaction(async (tx) => {
      await requireOwnClassImage(tx, teacherId, mine.url, null)
      release = releaseClassImagePath(api.db, mine.path, undefined, store)
      // Time for the release to finish if nothing held it back.
      await new Promise((r) => setTimeout(r, 300))
      await tx.update(classWorks).set({ imageUrl: mine.url }).where(eq(classWorks.id, created.body.id))
    })
    expect(await release).toBe('kept')
    expect(await served(mine.path)).toBe(200)
    expect(await owned(mine.path)).toBe(true)
  })

  it('ends either with the picture on the class and stored, or refused and deleted — never a class showing a deleted image', async () => {
    for (let round = 0; round < 6; round++) {
      const mine = await upload(SUBS.teacher)
      const created = await createClass(SUBS.teacher, { image_url: mine.url })
      const id = created.body.id as number
      await api.as(SUBS.teacher, 'PATCH', `/v1/teachers/class_works/${id}`, { image_url: null })
      const [patch, release] = await Promise.all([
        api.as(SUBS.teacher, 'PATCH', `/v1/teachers/class_works/${id}`, { image_url: mine.url }),
        releaseClassImagePath(api.db, mine.path, id, store),
      ])
      const [row] = await api.db.select().from(classWorks).where(eq(classWorks.id, id))
      if (patch.status === 200) {
        expect(release).toBe('kept')
        expect(row!.imageUrl).toBe(mine.url)
        expect(await served(mine.path)).toBe(200)
      } else {
        expect(patch.status).toBe(400)
        expect(release).toBe('deleted')
        expect(row!.imageUrl).toBeNull()
        expect(await served(mine.path)).toBe(404)
      }
      await api.db.delete(jobs).where(eq(jobs.kind, CLASS_IMAGE_RELEASE_KIND))
    }
  })
})

describe('suspension and the index', () => {
  it("suspending a teacher takes down the pictures of their published classes; a draft's stays (never public)", async () => {
    const sub = `images|teacher-${Date.now()}`
    const [teacher] = await api.db
      .insert(users)
      .values({
        issuer: TEST_ISSUER,
        sub,
        email: 'images-teacher@manabi.example',
        emailVerified: true,
        nickname: '画像先生',
        name: '画像 先生',
        nameKana: 'ガゾウ センセイ',
        role: 'teacher',
        isTeacher: true,
        teacherVerifiedAt: new Date(api.now.getTime() - 86_400_000),
        agreedToTermsAt: new Date(api.now.getTime() - 86_400_000),
      })
      .returning({ id: users.id })
    const shown = await upload(sub)
    const draft = await upload(sub)
    const published = await createClass(sub, { image_url: shown.url, is_published: true })
    expect(published.status, JSON.stringify(published.body)).toBe(201)
    expect((await createClass(sub, { image_url: draft.url })).status).toBe(201)
    const filed = await api.as(SUBS.parent, 'POST', '/v1/reports', {
      target_type: 'teacher',
      target_id: teacher!.id,
      reason: 'child_safety',
    })
    expect(filed.status, JSON.stringify(filed.body)).toBe(201)
    const resolved = await api.as(SUBS.operator, 'POST', `/v1/admin/reports/${filed.body.id}/resolve`, {
      action: 'suspend',
    })
    expect(resolved.status, JSON.stringify(resolved.body)).toBe(200)
    expect(await runReleases(shown.path)).toBe(1)
    expect(await served(shown.path)).toBe(404)
    expect(await runReleases(draft.path)).toBe(0)
    expect(await served(draft.path)).toBe(200)
  })

  it('whether a class still shows an image is answered from an index (no scan of the catalogue)', async () => {
    const plan = await api.db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`)
      return tx.execute(
        sql`explain select id from class_works where image_url = ${'/uploads/classes/x.webp'} limit 1`,
      )
    })
    expect(JSON.stringify(rowsOf(plan))).toContain('class_works_image_url_idx')
  })
})
