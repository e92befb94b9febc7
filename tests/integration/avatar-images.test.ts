/**
 * Uploaded avatars have an owner and an end (docs/decisions/0038): only the uploader may show one, and a photo its
 * member no longer shows — replaced, removed, or never shown — is deleted from the store by a job queued with the
 * change, so its address (and its smaller widths') answers 404. Runs on PGlite, and on PostgreSQL with
 * TEST_DATABASE_URL, where the races (two changes at once, a release and the owner taking the photo up again)
 * mean something (PGlite has one connection, so there each simply runs after the other).
 */
import { eq, sql } from 'drizzle-orm'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AVATAR_RELEASE_KIND, requireOwnAvatar } from '../../app/api/services/avatar-images'
import { User } from '../../app/contract/v1/users'
import { avatarImages, jobs, users } from '../../app/db/schema'
import { PermanentJobError } from '../../app/jobs/runner.server'
import {
  AVATAR_SWEEP_KIND,
  avatarImageHandlers,
  recordAvatarImage,
  releaseAvatarPath,
  sweepAbandonedAvatars,
} from '../../app/server/avatar-images.server'
import { saveAvatar } from '../../app/server/avatar-upload.server'
import { createDbUploadStore, recordOrDelete, type UploadStore } from '../../app/server/upload-store.server'
import { uploadResponse } from '../../app/server/uploads.server'
import { setupApi, type TestApi } from './support/api'
import { runQueuedJobs } from './support/jobs'
import { migrationStatement } from './support/migrations'
import { SUBS } from './support/tokens'

let api: TestApi
let store: UploadStore

beforeAll(async () => {
  api = await setupApi()
  store = createDbUploadStore(async () => api.db)
})
afterAll(async () => {
  await api?.close()
})

/** What uploadAvatar does before the profile change: store the re-encoded photo and record its uploader. */
async function upload(sub: string): Promise<{ url: string; path: string }> {
  const png = await sharp({ create: { width: 600, height: 600, channels: 3, background: '#e57373' } })
    .png()
    .toBuffer()
  const saved = await saveAvatar(new File([new Uint8Array(png)], 'me.png', { type: 'image/png' }), store)
  if (!saved.ok) throw new Error(saved.message)
  const path = saved.url.slice('/uploads/'.length)
  await recordAvatarImage(path, await api.userId(sub), api.db)
  return { url: saved.url, path }
}

const show = (sub: string, avatar_url: string | null, extra: Record<string, unknown> = {}) =>
  api.as(sub, 'PATCH', '/v1/users/me', { avatar_url, ...extra })

const shown = async (sub: string) => User.parse((await api.as(sub, 'GET', '/v1/users/me')).body).avatar_url

const served = async (path: string) => (await uploadResponse(path, store)).status

const owned = async (path: string) =>
  (await api.db.select().from(avatarImages).where(eq(avatarImages.path, path))).length === 1

const runReleases = (path: string) =>
  runQueuedJobs(api, AVATAR_RELEASE_KIND, avatarImageHandlers(() => store)[AVATAR_RELEASE_KIND]!, path)

describe('who may show an uploaded avatar', () => {
  it('the uploader may; another member may not (400 on avatar_url), and nothing of the change is written', async () => {
    const mine = await upload(SUBS.teacher)
    expect((await show(SUBS.teacher, mine.url)).status).toBe(200)
    const before = User.parse((await api.as(SUBS.parent, 'GET', '/v1/users/me')).body)
    const res = await show(SUBS.parent, mine.url, { nickname: 'なりすまし' })
    expect([res.status, res.body.code]).toEqual([400, 'invalid_request'])
    expect(JSON.stringify(res.body)).toContain('この画像は使えません。もう一度アップロードしてください')
    const after = User.parse((await api.as(SUBS.parent, 'GET', '/v1/users/me')).body)
    expect([after.avatar_url, after.nickname]).toEqual([before.avatar_url, before.nickname])
    // The owner may send what they show again (a client re-sending its whole profile).
    expect((await show(SUBS.teacher, mine.url, { nickname: 'けんた先生' })).status).toBe(200)
    expect(await shown(SUBS.teacher)).toBe(mine.url)
  })

  it('an uploads address nobody recorded (made up, or already deleted) is refused; a bundled picture is anyone’s', async () => {
    const madeUp = `/uploads/avatars/${'c'.repeat(32)}.webp`
    expect((await show(SUBS.parent, madeUp)).status).toBe(400)
    const bundled = '/images/avatars/teacher-11.svg'
    expect((await show(SUBS.parent, bundled)).status).toBe(200)
    expect((await show(SUBS.owner, bundled)).status).toBe(200)
  })
})

describe('a photo its member no longer shows is deleted', () => {
  it('replaced: the old photo and its smaller widths stop answering; the new one stays', async () => {
    const old = await upload(SUBS.parent)
    expect((await show(SUBS.parent, old.url)).status).toBe(200)
    const small = old.path.replace('.webp', '-w96.webp')
    expect(await served(small)).toBe(200)
    const next = await upload(SUBS.parent)
    expect((await show(SUBS.parent, next.url)).status).toBe(200)
    expect(await runReleases(old.path)).toBe(1)
    expect([await served(old.path), await served(small), await owned(old.path)]).toEqual([404, 404, false])
    expect([await served(next.path), await owned(next.path)]).toEqual([200, true])
  })

  it('removed (avatar_url null): released; a change that leaves the avatar alone queues nothing', async () => {
    const mine = await upload(SUBS.parent)
    expect((await show(SUBS.parent, mine.url)).status).toBe(200)
    expect((await api.as(SUBS.parent, 'PATCH', '/v1/users/me', { introduction: 'よろしく' })).status).toBe(
      200,
    )
    expect((await show(SUBS.parent, mine.url)).status).toBe(200)
    expect(await runReleases(mine.path)).toBe(0)
    expect((await show(SUBS.parent, null)).status).toBe(200)
    expect(await runReleases(mine.path)).toBe(1)
    expect(await served(mine.path)).toBe(404)
  })

  it('a change that fails queues nothing: a refused PATCH keeps the photo shown and stored', async () => {
    const mine = await upload(SUBS.parent)
    expect((await show(SUBS.parent, mine.url)).status).toBe(200)
    const res = await show(SUBS.parent, null, { nickname: '090-1234-5678' })
    expect([res.status, res.body.code]).toEqual([422, 'contact_info'])
    expect(await runReleases(mine.path)).toBe(0)
    expect([await shown(SUBS.parent), await served(mine.path)]).toEqual([mine.url, 200])
  })

  it('two changes at once: the photo shown last stays, both others go (each change releases what it replaced)', async () => {
    for (let round = 0; round < 4; round++) {
      const first = await upload(SUBS.parent)
      expect((await show(SUBS.parent, first.url)).status).toBe(200)
      const [b, c] = [await upload(SUBS.parent), await upload(SUBS.parent)]
      const answers = await Promise.all([show(SUBS.parent, b.url), show(SUBS.parent, c.url)])
      expect(answers.map((r) => r.status)).toEqual([200, 200])
      for (const p of [first, b, c]) await runReleases(p.path)
      const now = await shown(SUBS.parent)
      expect([b.url, c.url]).toContain(now)
      for (const p of [first, b, c])
        expect([p.url, await served(p.path)]).toEqual([p.url, p.url === now ? 200 : 404])
    }
  })
})

describe('the job and the sweep', () => {
  it('a release whose store delete fails is tried again and then deletes; a bad payload is not retried', async () => {
    const mine = await upload(SUBS.parent)
    let failures = 1
    const flaky: UploadStore = {
      ...store,
      async delete(path) {
        if (failures-- > 0) throw new Error('store away')
        await store.delete(path)
      },
    }
    await expect(releaseAvatarPath(api.db, mine.path, flaky)).rejects.toThrow('store away')
    // The row went with the first attempt; the retry finds no row and deletes the files.
    expect([await owned(mine.path), await served(mine.path)]).toEqual([false, 200])
    expect(await releaseAvatarPath(api.db, mine.path, flaky)).toBe('deleted')
    expect(await served(mine.path)).toBe(404)

    const handler = avatarImageHandlers(() => store)[AVATAR_RELEASE_KIND]!
    for (const payload of [{}, { path: '../classes/x.webp' }, { path: `classes/${'a'.repeat(32)}.webp` }])
      await expect(handler({ id: 0, kind: '', payload, attempts: 1 }, { db: api.db })).rejects.toBeInstanceOf(
        PermanentJobError,
      )
  })

  it('a photo whose uploader cannot be recorded is deleted, and the upload fails', async () => {
    const mine = await upload(SUBS.parent)
    // Recording the same path again breaks the primary key, as a database away would fail the insert.
    const stored = await saveAvatar(
      new File(
        [
          new Uint8Array(
            await sharp({ create: { width: 8, height: 8, channels: 3, background: '#fff' } })
              .png()
              .toBuffer(),
          ),
        ],
        'x.png',
        { type: 'image/png' },
      ),
      store,
    )
    if (!stored.ok) throw new Error(stored.message)
    const path = stored.url.slice('/uploads/'.length)
    const parentId = await api.userId(SUBS.parent)
    await expect(
      recordOrDelete(path, () => recordAvatarImage(mine.path, parentId, api.db), store),
    ).rejects.toThrow()
    expect(await served(path)).toBe(404)
    expect(await served(mine.path)).toBe(200)
  })

  it('uploads never shown are swept after a day; younger ones and the one shown stay', async () => {
    const abandoned = await upload(SUBS.owner)
    const young = await upload(SUBS.owner)
    const kept = await upload(SUBS.owner)
    expect((await show(SUBS.owner, kept.url)).status).toBe(200)
    const dayAgo = new Date(Date.now() - 25 * 3600_000)
    for (const p of [abandoned.path, kept.path])
      await api.db.update(avatarImages).set({ createdAt: dayAgo }).where(eq(avatarImages.path, p))
    expect(await sweepAbandonedAvatars(api.db, new Date(), store)).toBeGreaterThanOrEqual(1)
    expect(await served(abandoned.path)).toBe(404)
    expect([await served(young.path), await served(kept.path)]).toEqual([200, 200])
    expect(avatarImageHandlers()[AVATAR_SWEEP_KIND]).toBeTypeOf('function')
  })
})

describe('a release and the owner taking the photo up again, at once', () => {
  it('a smaller width made while its photo is released does not outlive it', async () => {
    const mine = await upload(SUBS.parent)
    const small = mine.path.replace('.webp', '-w96.webp')
    // The release runs after the width was made from the original and before it is stored: it misses the width.
    const racing: UploadStore = {
      ...store,
      async put(path, type, bytes) {
        if (path === small) expect(await releaseAvatarPath(api.db, mine.path, store)).toBe('deleted')
        await store.put(path, type, bytes)
      },
    }
    expect((await uploadResponse(small, racing)).status).toBe(404)
    expect([await served(mine.path), await store.get(small)]).toEqual([404, undefined])
  })

  it('a new width whose original cannot be checked afterwards is still answered (the store away for a moment)', async () => {
    const mine = await upload(SUBS.parent)
    const small = mine.path.replace('.webp', '-w96.webp')
    let made = false
    const flaky: UploadStore = {
      ...store,
      async get(path) {
        if (made && path === mine.path) throw new Error('store away')
        return store.get(path)
      },
      async put(path, type, bytes) {
        await store.put(path, type, bytes)
        if (path === small) made = true
      },
    }
    expect((await uploadResponse(small, flaky)).status).toBe(200)
    expect(await served(small)).toBe(200)
  })

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'a photo change does not wait for rows that reference the member (their FOR KEY SHARE)',
    async () => {
      const mine = await upload(SUBS.parent)
      const parentId = await api.userId(SUBS.parent)
      await api.db.transaction(async (tx) => {
        // What a booking or a message holds on its member until it commits.
        await tx.select({ id: users.id }).from(users).where(eq(users.id, parentId)).for('key share')
        const answer = await Promise.race([
          show(SUBS.parent, mine.url).then((r) => r.status),
          new Promise((r) => setTimeout(() => r('waited'), 3000)),
        ])
        expect(answer).toBe(200)
      })
    },
  )

  it('a release waits for a change that has checked the photo, then sees it shown (the ownership row lock)', async () => {
    const mine = await upload(SUBS.parent)
    const parentId = await api.userId(SUBS.parent)
    let release: Promise<'kept' | 'deleted'> | undefined
    await api.db.transaction(async (tx) => {
      await requireOwnAvatar(tx, parentId, mine.url)
      release = releaseAvatarPath(api.db, mine.path, store)
      // Time for the release to finish if nothing held it back.
      await new Promise((r) => setTimeout(r, 300))
      await tx.update(users).set({ avatarUrl: mine.url }).where(eq(users.id, parentId))
    })
    expect(await release).toBe('kept')
    expect([await served(mine.path), await owned(mine.path)]).toEqual([200, true])
  })

  it('ends with the photo shown and stored, or refused and deleted — never a profile showing a deleted photo', async () => {
    for (let round = 0; round < 6; round++) {
      const mine = await upload(SUBS.parent)
      expect((await show(SUBS.parent, null)).status).toBe(200)
      const [patch, release] = await Promise.all([
        show(SUBS.parent, mine.url),
        releaseAvatarPath(api.db, mine.path, store),
      ])
      if (patch.status === 200) {
        expect(release).toBe('kept')
        expect([await shown(SUBS.parent), await served(mine.path)]).toEqual([mine.url, 200])
      } else {
        expect([patch.status, release]).toEqual([400, 'deleted'])
        expect(await served(mine.path)).toBe(404)
      }
      await api.db.delete(jobs).where(eq(jobs.kind, AVATAR_RELEASE_KIND))
    }
  })
})

describe('migration 0032', () => {
  const replay = async () => {
    for (const comment of ['-- Avatars already shown belong to', '-- A photo several members show'])
      await api.db.execute(sql.raw(migrationStatement('0032_avatar_images.sql', comment)))
  }

  it('gives each avatar already shown to the member showing it; a photo several showed is shown by none', async () => {
    const [parentId, ownerId, teacherId] = [
      await api.userId(SUBS.parent),
      await api.userId(SUBS.owner),
      await api.userId(SUBS.teacher),
    ]
    const own = `avatars/${'d'.repeat(32)}.webp`
    const shared = `avatars/${'f'.repeat(32)}.webp`
    await api.db
      .update(users)
      .set({ avatarUrl: `/uploads/${own}` })
      .where(eq(users.id, parentId))
    for (const id of [ownerId, teacherId])
      await api.db
        .update(users)
        .set({ avatarUrl: `/uploads/${shared}` })
        .where(eq(users.id, id))
    await replay()
    const [row] = await api.db.select().from(avatarImages).where(eq(avatarImages.path, own))
    expect(row?.ownerId).toBe(parentId)
    expect(await shown(SUBS.parent)).toBe(`/uploads/${own}`)
    // Whose face the shared one is cannot be told: neither shows it, and the sweep takes it a day later.
    expect([await shown(SUBS.owner), await shown(SUBS.teacher)]).toEqual([null, null])
    expect(await owned(shared)).toBe(true)
    await api.db
      .update(avatarImages)
      .set({ createdAt: new Date(Date.now() - 25 * 3600_000) })
      .where(eq(avatarImages.path, shared))
    await sweepAbandonedAvatars(api.db, new Date(), store)
    expect(await owned(shared)).toBe(false)
    // Replaying it changes nothing.
    await replay()
    expect(await api.db.select().from(avatarImages).where(eq(avatarImages.path, own))).toHaveLength(1)
    await api.db.update(users).set({ avatarUrl: null }).where(eq(users.id, parentId))
  })
})
