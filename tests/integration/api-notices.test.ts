import { and, eq, inArray } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ClassAnnouncement, ClassAnnouncementList } from '../../app/contract/v1/announcements'
import { Notice, NoticeList } from '../../app/contract/v1/notices'
import { classAnnouncements, classWorkSchedules, noticeReads, notices, purchases } from '../../app/db/schema'
import { setupApi, type TestApi } from './support/api'
import { SUBS } from './support/tokens'

let api: TestApi

beforeAll(async () => {
  api = await setupApi()
})
afterAll(async () => {
  await api?.close()
})

describe('operator notices', () => {
  it('lists published notices newest first with read state; scheduled ones are hidden', async () => {
    const res = await api.as(SUBS.parent, 'GET', '/v1/notices')
    expect(res.status).toBe(200)
    const list = NoticeList.parse(res.body)
    const all = await api.db.select().from(notices)
    expect(list.length).toBe(all.filter((n) => n.publishedAt <= api.now).length)
    expect(list.length).toBeLessThan(all.length)
    const dates = list.map((n) => n.published_at)
    expect(dates).toEqual([...dates].sort().reverse())
    expect(list.filter((n) => !n.is_read).length).toBeGreaterThan(0)
    // Someone else’s reads are not the parent’s.
    const owner = NoticeList.parse((await api.as(SUBS.owner, 'GET', '/v1/notices')).body)
    expect(owner.every((n) => !n.is_read)).toBe(true)
  })

  it('marks one read (idempotently) and the unread count drops by one', async () => {
    const list = NoticeList.parse((await api.as(SUBS.parent, 'GET', '/v1/notices')).body)
    const unread = list.filter((n) => !n.is_read)
    const target = unread[0]!
    const detail = Notice.parse((await api.as(SUBS.parent, 'GET', `/v1/notices/${target.id}`)).body)
    expect(detail.is_read).toBe(false)
    for (let i = 0; i < 2; i++) {
      const res = await api.as(SUBS.parent, 'POST', `/v1/notices/${target.id}/read`)
      expect(res.status).toBe(200)
      expect(res.body).toEqual({ id: target.id, is_read: true })
    }
    const after = NoticeList.parse((await api.as(SUBS.parent, 'GET', '/v1/notices')).body)
    expect(after.filter((n) => !n.is_read).length).toBe(unread.length - 1)
    const rows = await api.db.select().from(noticeReads).where(eq(noticeReads.noticeId, target.id))
    expect(rows.filter((r) => r.userId === (list.length ? rows[0]!.userId : 0))).toHaveLength(1)
  })

  it('a scheduled or unknown notice is 404, and marking it read changes nothing', async () => {
    const [future] = (await api.db.select().from(notices)).filter((n) => n.publishedAt > api.now)
    const before = await api.count('notice_reads')
    for (const id of [future!.id, 99_999_999]) {
      expect((await api.as(SUBS.parent, 'GET', `/v1/notices/${id}`)).status).toBe(404)
      expect((await api.as(SUBS.parent, 'POST', `/v1/notices/${id}/read`)).status).toBe(404)
    }
    expect((await api.as(SUBS.parent, 'POST', '/v1/notices/abc/read')).status).toBe(400)
    expect(await api.count('notice_reads')).toBe(before)
  })

  it('requires a member', async () => {
    expect((await api.call('GET', '/v1/notices')).status).toBe(401)
    expect((await api.as(SUBS.newUser, 'GET', '/v1/notices')).status).toBe(404)
  })
})

describe('class announcements', () => {
  it('reads one of a reserved class and marks it read; the unread count drops', async () => {
    const list = ClassAnnouncementList.parse(
      (await api.as(SUBS.parent, 'GET', '/v1/class_announcements')).body,
    )
    const unread = list.filter((a) => !a.is_read)
    expect(unread.length).toBeGreaterThan(0)
    const target = unread[0]!
    const detail = ClassAnnouncement.parse(
      (await api.as(SUBS.parent, 'GET', `/v1/class_announcements/${target.id}`)).body,
    )
    expect(detail).toEqual(target)
    const res = await api.as(SUBS.parent, 'POST', `/v1/class_announcements/${target.id}/read`)
    expect(res.status).toBe(200)
    const after = ClassAnnouncementList.parse(
      (await api.as(SUBS.parent, 'GET', '/v1/class_announcements')).body,
    )
    expect(after.filter((a) => !a.is_read).length).toBe(unread.length - 1)
    expect(after.find((a) => a.id === target.id)!.is_read).toBe(true)
  })

  it('an announcement of a class the caller did not reserve is 404', async () => {
    const mine = new Set(
      ClassAnnouncementList.parse((await api.as(SUBS.owner, 'GET', '/v1/class_announcements')).body).map(
        (a) => a.id,
      ),
    )
    const [other] = (await api.db.select({ id: classAnnouncements.id }).from(classAnnouncements)).filter(
      (a) => !mine.has(a.id),
    )
    const before = await api.count('class_announcement_reads')
    expect((await api.as(SUBS.owner, 'GET', `/v1/class_announcements/${other!.id}`)).status).toBe(404)
    expect((await api.as(SUBS.owner, 'POST', `/v1/class_announcements/${other!.id}/read`)).status).toBe(404)
    expect(await api.count('class_announcement_reads')).toBe(before)
  })

  it('after the teacher cancels, the member still opens the announcements posted before the cancellation', async () => {
    const parentId = await api.userId(SUBS.parent)
    const list = ClassAnnouncementList.parse(
      (await api.as(SUBS.parent, 'GET', '/v1/class_announcements')).body,
    )
    const target = list[0]!
    const [schedule] = await api.db
      .select({ id: classWorkSchedules.id })
      .from(classWorkSchedules)
      .where(eq(classWorkSchedules.classWorkId, target.class_work_id))
    // Only a teacher-canceled seat in that class, canceled after the announcement.
    await api.db
      .update(purchases)
      .set({ status: 'canceled_by_teacher', canceledAt: api.now })
      .where(
        and(
          eq(purchases.userId, parentId),
          eq(purchases.status, 'reserved'),
          inArray(
            purchases.scheduleId,
            api.db
              .select({ id: classWorkSchedules.id })
              .from(classWorkSchedules)
              .where(eq(classWorkSchedules.classWorkId, target.class_work_id)),
          ),
        ),
      )
    expect(schedule).toBeDefined()
    expect((await api.as(SUBS.parent, 'GET', `/v1/class_announcements/${target.id}`)).status).toBe(200)
    expect((await api.as(SUBS.parent, 'POST', `/v1/class_announcements/${target.id}/read`)).status).toBe(200)
    // One posted after the cancellation is not theirs.
    const [later] = await api.db
      .insert(classAnnouncements)
      .values({
        classWorkId: target.class_work_id,
        title: '後のお知らせ',
        body: '本文',
        createdAt: new Date(api.now.getTime() + 60_000),
      })
      .returning()
    expect((await api.as(SUBS.parent, 'GET', `/v1/class_announcements/${later!.id}`)).status).toBe(404)
    const after = ClassAnnouncementList.parse(
      (await api.as(SUBS.parent, 'GET', '/v1/class_announcements')).body,
    )
    expect(after.some((a) => a.id === later!.id)).toBe(false)
    expect(after.some((a) => a.id === target.id)).toBe(true)
  })
})
