/**
 * 運営 (issue 15): the operator role (command line only), /v1/admin/* for operators only, notices written,
 * scheduled and withdrawn by operators, and the append-only audit log.
 */
import { eq, inArray, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AdminNotice, AdminNoticeList, AuditPage } from '../../app/contract/v1/admin'
import { audit } from '../../app/db/audit'
import { setOperator } from '../../app/db/operators'
import { auditLog, jobs, mails, messages, notices, users } from '../../app/db/schema'
import { enqueue } from '../../app/jobs/queue.server'
import { type Job, type JobHandler, startJobRunner } from '../../app/jobs/runner.server'
import { setNotificationPreference } from '../../app/notifications/preferences.server'
import { setupApi, type TestApi } from './support/api'
import { appJobHandlers, drainAppJobs } from './support/jobs'
import { testMailSettings } from './support/mail'
import { insertMembers } from './support/people'
import { SUBS } from './support/tokens'

let api: TestApi
let operatorId: number
let parentId: number

beforeAll(async () => {
  api = await setupApi()
  operatorId = await api.userId(SUBS.operator)
  parentId = await api.userId(SUBS.parent)
})
afterAll(async () => {
  await api?.close()
})

const ADMIN_CALLS: [string, string, unknown?][] = [
  ['GET', '/v1/admin/notices'],
  ['POST', '/v1/admin/notices', { title: 'テスト', body: '本文' }],
  ['POST', '/v1/admin/notices/1/withdraw'],
  ['GET', '/v1/admin/audit'],
  ['GET', '/v1/admin/messages'],
  ['POST', '/v1/admin/messages/1/release'],
  ['POST', '/v1/admin/messages/1/delete'],
]

describe('/v1/admin is for operators only', () => {
  it('a visitor is 401; a member, a teacher and an organisation owner are 404; nothing is written', async () => {
    const before = await api.count('notices')
    for (const [method, path, body] of ADMIN_CALLS) {
      expect((await api.call(method, path, { body })).status, `${method} ${path}`).toBe(401)
      for (const sub of [SUBS.parent, SUBS.teacher, SUBS.owner, SUBS.member01]) {
        const res = await api.as(sub, method, path, body)
        expect(res.status, `${sub} ${method} ${path}`).toBe(404)
        expect(res.body.code).toBe('not_found')
      }
    }
    expect(await api.count('notices')).toBe(before)
  })

  it('the operator passes; a revoke from the command line takes effect on the next call', async () => {
    expect((await api.as(SUBS.operator, 'GET', '/v1/admin/notices')).status).toBe(200)
    await setOperator(api.db, 'parent@manabi.example', true, 'cli (test)')
    expect((await api.as(SUBS.parent, 'GET', '/v1/admin/notices')).status).toBe(200)
    await setOperator(api.db, 'parent@manabi.example', false, 'cli (test)')
    expect((await api.as(SUBS.parent, 'GET', '/v1/admin/notices')).status).toBe(404)
    const entries = await api.db
      .select()
      .from(auditLog)
      .where(sql`${auditLog.action} in ('role_grant', 'role_revoke')`)
      .orderBy(auditLog.id)
    expect(entries.map((e) => [e.action, e.actorLabel, e.targetId])).toEqual([
      ['role_grant', 'cli (test)', String(parentId)],
      ['role_revoke', 'cli (test)', String(parentId)],
    ])
    await expect(setOperator(api.db, 'nobody@manabi.example', true, 'cli (test)')).rejects.toThrow(
      'No registered member',
    )
  })

  it('the command grants only to a verified address held by one member; nothing changes otherwise', async () => {
    const [lone, twin1, twin2] = await insertMembers(api.db, 'operator-cli', 3)
    const setEmail = (sub: string, email: string, emailVerified: boolean) =>
      api.db.update(users).set({ email, emailVerified }).where(eq(users.sub, sub))
    // Someone signed up (through a login whose e-mail claim is not verified) with a new staff member's address.
    await setEmail(lone!, 'new-staff@manabi.example', false)
    await expect(setOperator(api.db, 'New-Staff@manabi.example', true, 'cli (test)')).rejects.toThrow(
      'verified e-mail',
    )
    await setEmail(twin1!, 'twin@manabi.example', true)
    await setEmail(twin2!, 'twin@manabi.example', true)
    await expect(setOperator(api.db, 'twin@manabi.example', true, 'cli (test)')).rejects.toThrow(
      'Several members',
    )
    const operators = await api.db.select({ sub: users.sub }).from(users).where(eq(users.isOperator, true))
    expect(operators.map((o) => o.sub).filter((s) => [lone, twin1, twin2].includes(s))).toEqual([])
  })

  it('no API can grant the role: the users API ignores is_operator', async () => {
    const res = await api.as(SUBS.parent, 'PATCH', '/v1/users/me', { is_operator: true })
    expect([400, 422]).toContain(res.status)
    const [row] = await api.db.select({ op: users.isOperator }).from(users).where(eq(users.id, parentId))
    expect(row!.op).toBe(false)
  })
})

describe('notices', () => {
  it('an operator writes one: Markdown made safe once, audited with the address, members see it', async () => {
    const res = await api.call('POST', '/v1/admin/notices', {
      token: await (await import('./support/tokens')).tokenFor(SUBS.operator),
      body: {
        title: 'メンテナンスのお知らせ',
        body: '**12月1日**に\n- 予約\n- メッセージ\nが使えません。<script>alert(1)</script>[詳細](https://manabi.example/help)',
      },
      headers: { 'x-real-ip': '203.0.113.7' },
    })
    expect(res.status).toBe(201)
    const notice = AdminNotice.parse(res.body)
    expect(notice.state).toBe('published')
    expect(notice.created_by).toBe('運営スタッフ')
    expect(notice.body_html).toContain('<strong>12月1日</strong>')
    expect(notice.body_html).toContain('<li>予約</li>')
    expect(notice.body_html).not.toContain('<script')
    const [entry] = await api.db.select().from(auditLog).where(eq(auditLog.action, 'notice_create'))
    expect(entry).toMatchObject({
      actorId: operatorId,
      targetType: 'notice',
      targetId: String(notice.id),
      address: '203.0.113.7',
    })
    const seen = await api.as(SUBS.parent, 'GET', `/v1/notices/${notice.id}`)
    expect(seen.status).toBe(200)
    expect(seen.body.body_html).toBe(notice.body_html)
  })

  it('a scheduled one stays hidden until its time; a withdrawn one disappears; withdrawing twice is 409', async () => {
    const later = new Date(api.now.getTime() + 3 * 24 * 3600_000).toISOString()
    const created = AdminNotice.parse(
      (
        await api.as(SUBS.operator, 'POST', '/v1/admin/notices', {
          title: '予約投稿',
          body: '三日後',
          published_at: later,
        })
      ).body,
    )
    expect(created.state).toBe('scheduled')
    expect((await api.as(SUBS.parent, 'GET', `/v1/notices/${created.id}`)).status).toBe(404)
    const [job] = await api.db
      .select()
      .from(jobs)
      .where(eq(jobs.dedupeKey, `notice:${created.id}`))
    expect(job!.runAt.toISOString()).toBe(later)

    const published = AdminNotice.parse(
      (
        await api.as(SUBS.operator, 'POST', '/v1/admin/notices', {
          title: '取り下げる',
          body: 'あとで取り下げ',
        })
      ).body,
    )
    expect((await api.as(SUBS.parent, 'GET', `/v1/notices/${published.id}`)).status).toBe(200)
    const withdrawn = await api.as(SUBS.operator, 'POST', `/v1/admin/notices/${published.id}/withdraw`)
    expect(withdrawn.status).toBe(200)
    expect(withdrawn.body.state).toBe('withdrawn')
    expect((await api.as(SUBS.parent, 'GET', `/v1/notices/${published.id}`)).status).toBe(404)
    const list = await api.as(SUBS.parent, 'GET', '/v1/notices')
    expect(list.body.map((n: { id: number }) => n.id)).not.toContain(published.id)
    const again = await api.as(SUBS.operator, 'POST', `/v1/admin/notices/${published.id}/withdraw`)
    expect(again.status).toBe(409)
    expect(again.body.code).toBe('already_withdrawn')
    expect((await api.as(SUBS.operator, 'POST', '/v1/admin/notices/999999/withdraw')).status).toBe(404)
    const all = AdminNoticeList.parse((await api.as(SUBS.operator, 'GET', '/v1/admin/notices')).body)
    expect(all.find((n) => n.id === created.id)?.state).toBe('scheduled')
  })

  it('bad input is 400 and writes nothing', async () => {
    const before = await api.count('notices')
    for (const body of [
      { title: '', body: 'x' },
      { title: 'x', body: '   ' },
      { title: 'x'.repeat(101), body: 'x' },
      { title: 'x', body: 'x'.repeat(5001) },
      { title: 'x', body: 'x', published_at: 'tomorrow' },
      { title: 'x', body: 'x', created_by: 1 },
      undefined, // no body at all (no content type either): was a 500
    ]) {
      const res = await api.as(SUBS.operator, 'POST', '/v1/admin/notices', body)
      expect(res.status, JSON.stringify(body)).toBe(400)
    }
    expect(await api.count('notices')).toBe(before)
  })

  it('lists 200 a page, the latest publication first, so the oldest can still be withdrawn; a bad page is 400', async () => {
    const base = api.now.getTime() - 365 * 24 * 3600_000
    // Older than every notice so far: they fill the end of the list, the last one alone on the second page.
    const extra = await api.db
      .insert(notices)
      .values(
        Array.from({ length: 201 }, (_, i) => ({
          title: `古いお知らせ${i}`,
          body: '一年前',
          publishedAt: new Date(base - i * 60_000),
        })),
      )
      .returning({ id: notices.id })
    try {
      const total = await api.count('notices')
      const first = AdminNoticeList.parse((await api.as(SUBS.operator, 'GET', '/v1/admin/notices')).body)
      expect(first).toHaveLength(200)
      const second = AdminNoticeList.parse(
        (await api.as(SUBS.operator, 'GET', '/v1/admin/notices?page=2')).body,
      )
      expect(second).toHaveLength(total - 200)
      expect(new Set([...first, ...second].map((n) => n.id)).size).toBe(total)
      const dates = [...first, ...second].map((n) => n.published_at)
      expect(dates).toEqual([...dates].sort().reverse())
      expect(second.at(-1)?.title).toBe('古いお知らせ200')
      expect((await api.as(SUBS.operator, 'GET', '/v1/admin/notices?page=3')).body).toEqual([])
      for (const page of ['0', '-1', 'abc', '1001', '1.5']) {
        const res = await api.as(SUBS.operator, 'GET', `/v1/admin/notices?page=${page}`)
        expect(res.status, page).toBe(400)
        expect(res.body.code).toBe('invalid_request')
      }
      const oldest = second.at(-1)!
      const withdrawn = await api.as(SUBS.operator, 'POST', `/v1/admin/notices/${oldest.id}/withdraw`)
      expect(withdrawn.body.state).toBe('withdrawn')
    } finally {
      await api.db.delete(notices).where(
        inArray(
          notices.id,
          extra.map((n) => n.id),
        ),
      )
    }
  })

  it('mails the members who asked for operator notices (opt-in), not the others, and not a withdrawn one', async () => {
    await api.db.delete(mails)
    await api.db.delete(jobs) // earlier tests' notices: not this test's business
    await setNotificationPreference(api.db, parentId, 'operator_notice', true)
    const sent = AdminNotice.parse(
      (
        await api.as(SUBS.operator, 'POST', '/v1/admin/notices', {
          title: '新機能',
          body: '**カレンダー連携**を始めました。\n\n- [設定](https://manabi.example/mypage)から登録できます',
        })
      ).body,
    )
    const gone = AdminNotice.parse(
      (await api.as(SUBS.operator, 'POST', '/v1/admin/notices', { title: '取り下げ', body: '送らない' }))
        .body,
    )
    await api.as(SUBS.operator, 'POST', `/v1/admin/notices/${gone.id}/withdraw`)
    const runner = startJobRunner({
      db: api.db,
      autoStart: false,
      handlers: appJobHandlers({
        mail: testMailSettings(),
      }),
    })
    await runner.drain()
    const box = await api.db.select({ to: mails.toAddress, subject: mails.subject }).from(mails)
    // What the queue holds, should this fail (it did once on PostgreSQL in a full run, no mail, cause not known):
    // a job waiting for its retry (drain() stops at jobs not due yet) would show here with its last error.
    const queue = await api.db
      .select({
        kind: jobs.kind,
        attempts: jobs.attempts,
        runAt: jobs.runAt,
        finishedAt: jobs.finishedAt,
        failed: jobs.failed,
        lastError: jobs.lastError,
      })
      .from(jobs)
    expect(box, JSON.stringify(queue)).toEqual([
      { to: 'parent@manabi.example', subject: '【まなびのたね】新機能' },
    ])
    expect(sent.id).toBeGreaterThan(0)
    // The excerpt quotes the notice's words, not its Markdown.
    const [mail] = await api.db.select({ text: mails.text, html: mails.html }).from(mails)
    expect(mail!.text).toContain('カレンダー連携を始めました。')
    expect(mail!.text).toContain('設定から登録できます')
    expect(`${mail!.text}${mail!.html}`).not.toMatch(/\*\*|\]\(/u)
  })

  it('a notice withdrawn while its mails wait in the queue sends none of those still waiting', async () => {
    await api.db.delete(mails)
    await api.db.delete(jobs)
    await setNotificationPreference(api.db, parentId, 'operator_notice', true)
    const notice = AdminNotice.parse(
      (await api.as(SUBS.operator, 'POST', '/v1/admin/notices', { title: '誤り', body: '取り下げる予定' }))
        .body,
    )
    const handlers = appJobHandlers({ mail: testMailSettings() })
    // Only the fan-out runs: one mail job per member is queued, none sent yet.
    const [fanOut] = await api.db.select().from(jobs).where(eq(jobs.kind, 'notify.notice'))
    await (handlers as Record<string, JobHandler>)['notify.notice']!(fanOut as Job, { db: api.db })
    await api.db.delete(jobs).where(eq(jobs.id, fanOut!.id))
    expect(await api.db.select().from(jobs).where(eq(jobs.kind, 'mail.send'))).toHaveLength(1)
    expect((await api.as(SUBS.operator, 'POST', `/v1/admin/notices/${notice.id}/withdraw`)).status).toBe(200)
    await startJobRunner({ db: api.db, autoStart: false, handlers }).drain()
    expect(await api.db.select().from(mails)).toEqual([])
    const [job] = await api.db.select().from(jobs).where(eq(jobs.kind, 'mail.send'))
    expect(job, String(job?.lastError)).toMatchObject({ failed: false })
    expect(job!.finishedAt).not.toBeNull()
  })

  it('a mail waiting in the queue is not sent to a member who switched its kind off, or was suspended, since', async () => {
    await api.db.delete(mails)
    await api.db.delete(jobs)
    await setNotificationPreference(api.db, parentId, 'operator_notice', true)
    expect(
      (
        await api.as(SUBS.operator, 'POST', '/v1/admin/notices', {
          title: '配信停止',
          body: '待っている間に',
        })
      ).status,
    ).toBe(201)
    const handlers = appJobHandlers({ mail: testMailSettings() })
    const [fanOut] = await api.db.select().from(jobs).where(eq(jobs.kind, 'notify.notice'))
    await (handlers as Record<string, JobHandler>)['notify.notice']!(fanOut as Job, { db: api.db })
    await api.db.delete(jobs).where(eq(jobs.id, fanOut!.id))
    expect(await api.db.select().from(jobs).where(eq(jobs.kind, 'mail.send'))).toHaveLength(1)
    // Switched off (the settings page, or another mail's unsubscribe link) while the mail waited.
    await setNotificationPreference(api.db, parentId, 'operator_notice', false)
    await startJobRunner({ db: api.db, autoStart: false, handlers }).drain()
    expect(await api.db.select().from(mails)).toEqual([])

    // Suspended while two mails waited: the one about their money still goes, the class news does not.
    const [sub] = await insertMembers(api.db, 'queued-suspended', 1)
    const memberId = await api.userId(sub!)
    const lesson = {
      className: '算数',
      startedAt: '2026-12-10T01:00:00.000Z',
      endedAt: '2026-12-10T02:00:00.000Z',
      attendee: 'はなこ',
    }
    await enqueue(api.db, 'mail.send', {
      messageId: '<refund-queued@manabi.example>',
      to: 'queued@manabi.example',
      userId: memberId,
      template: 'refund_completed',
      props: { ...lesson, amount: 1500, historyUrl: 'https://manabi.example/purchase_history' },
    })
    await enqueue(api.db, 'mail.send', {
      messageId: '<news-queued@manabi.example>',
      to: 'queued@manabi.example',
      userId: memberId,
      template: 'class_announcement',
      props: {
        className: '算数',
        title: '持ち物',
        excerpt: '定規',
        url: 'https://manabi.example/information',
      },
    })
    await api.db.update(users).set({ suspendedAt: new Date() }).where(eq(users.id, memberId))
    await startJobRunner({ db: api.db, autoStart: false, handlers }).drain()
    const sent = await api.db.select().from(mails)
    expect(sent.map((m) => m.subject)).toHaveLength(1)
    expect(sent[0]!.subject).toContain('返金')
  })

  it('a notice whose job runs early by this instance’s clock is mailed when it appears, not dropped', async () => {
    await api.db.delete(mails)
    await api.db.delete(jobs)
    await setNotificationPreference(api.db, parentId, 'operator_notice', true)
    const notice = AdminNotice.parse(
      (await api.as(SUBS.operator, 'POST', '/v1/admin/notices', { title: '時計', body: '遅れて届く' })).body,
    )
    // The database found the job due, but the notice appears 2 minutes later by this process's clock.
    const later = new Date(Date.now() + 2 * 60_000)
    await api.db.update(notices).set({ publishedAt: later }).where(eq(notices.id, notice.id))
    const run = () => drainAppJobs(api)
    await run()
    expect(await api.db.select().from(mails)).toEqual([])
    const [job] = await api.db.select().from(jobs).where(eq(jobs.kind, 'notify.notice'))
    expect([job!.finishedAt, job!.runAt.getTime()]).toEqual([null, later.getTime()])
    // When it is due, it is sent.
    await api.db.update(notices).set({ publishedAt: new Date() }).where(eq(notices.id, notice.id))
    await api.db.update(jobs).set({ runAt: new Date() }).where(eq(jobs.id, job!.id))
    await run()
    expect((await api.db.select({ subject: mails.subject }).from(mails)).map((m) => m.subject)).toEqual([
      '【まなびのたね】時計',
    ])
  })
})

describe('the audit log', () => {
  it('is append-only: UPDATE, DELETE and TRUNCATE are refused', async () => {
    await audit(api.db, { actorLabel: 'test', action: 'sign_in' })
    const count = await api.count('audit_log')
    await expect(api.db.update(auditLog).set({ actorLabel: 'changed' })).rejects.toThrow()
    await expect(api.db.delete(auditLog)).rejects.toThrow()
    await expect(api.db.execute(sql`truncate audit_log`)).rejects.toThrow()
    expect(await api.count('audit_log')).toBe(count)
    const [unchanged] = await api.db.select().from(auditLog).where(eq(auditLog.actorLabel, 'changed'))
    expect(unchanged).toBeUndefined()
  })

  it('pages and filters by action, actor and Tokyo day', async () => {
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Tokyo' }).format(new Date())
    const res = await api.as(
      SUBS.operator,
      'GET',
      `/v1/admin/audit?action=notice_create&from=${today}&to=${today}`,
    )
    expect(res.status).toBe(200)
    const page = AuditPage.parse(res.body)
    expect(page.entries.length).toBeGreaterThan(0)
    expect(page.entries.every((e) => e.action === 'notice_create' && e.actor_id === operatorId)).toBe(true)
    const byActor = AuditPage.parse(
      (await api.as(SUBS.operator, 'GET', `/v1/admin/audit?actor_id=${parentId}`)).body,
    )
    expect(byActor.entries).toEqual([])
    const yesterday = AuditPage.parse(
      (await api.as(SUBS.operator, 'GET', '/v1/admin/audit?from=2000-01-01&to=2000-01-02')).body,
    )
    expect(yesterday.entries).toEqual([])
    for (const bad of ['action=drop', 'from=2026-13-01', 'page=0', 'actor_id=-1', 'page=abc']) {
      expect((await api.as(SUBS.operator, 'GET', `/v1/admin/audit?${bad}`)).status, bad).toBe(400)
    }
    expect((await api.as(SUBS.operator, 'GET', '/v1/admin/audit?page=2')).body.entries).toEqual([])
  })
})

describe('notices as members see them', () => {
  it('demo notices stay plain text (body_html null)', async () => {
    const list = await api.as(SUBS.parent, 'GET', '/v1/notices')
    const demo = list.body.find((n: { body_html: string | null }) => n.body_html === null)
    expect(demo).toBeDefined()
    const [row] = await api.db.select().from(notices).where(eq(notices.id, demo.id))
    expect(row!.createdBy).toBeNull()
  })
})

describe('held messages', () => {
  it('a flagged message is held: its sender sees 確認中, the recipient nothing (no unread, no mail job) until released', async () => {
    const teacherId = await api.userId(SUBS.teacher)
    const room = await api.as(SUBS.parent, 'POST', '/v1/rooms', { partner_id: teacherId })
    const roomId = room.body.id as number
    const unread = async () =>
      (await api.as(SUBS.teacher, 'GET', '/v1/rooms')).body.find((r: { id: number }) => r.id === roomId)
        .unread_count as number
    const before = await unread()
    await api.db.delete(jobs)
    const sent = await api.as(SUBS.parent, 'POST', `/v1/rooms/${roomId}/messages`, {
      body: 'インスタは hanako.mama です。ぜろきゅうぜろ いちにさんよん ごろくななはち',
    })
    expect(sent.status).toBe(201)
    expect(sent.body.status).toBe('held')
    const own = (await api.as(SUBS.parent, 'GET', `/v1/rooms/${roomId}/messages`)).body
    expect(own.at(-1)).toMatchObject({ id: sent.body.id, status: 'held' })
    const theirs = (await api.as(SUBS.teacher, 'GET', `/v1/rooms/${roomId}/messages`)).body
    expect(theirs.map((m: { id: number }) => m.id)).not.toContain(sent.body.id)
    expect(await unread()).toBe(before)
    const lastForTeacher = (await api.as(SUBS.teacher, 'GET', '/v1/rooms')).body.find(
      (r: { id: number }) => r.id === roomId,
    ).last_message
    expect(lastForTeacher?.id).not.toBe(sent.body.id)
    expect(await api.db.select().from(jobs).where(eq(jobs.kind, 'notify.message'))).toEqual([])

    // Members cannot moderate; the operator sees it and releases it.
    for (const sub of [SUBS.parent, SUBS.teacher])
      expect((await api.as(sub, 'POST', `/v1/admin/messages/${sent.body.id}/release`)).status).toBe(404)
    const held = (await api.as(SUBS.operator, 'GET', '/v1/admin/messages')).body
    const item = held.find((m: { id: number }) => m.id === sent.body.id)
    expect(item).toMatchObject({ found: expect.stringContaining('電話番号'), sender: { id: parentId } })
    const released = await api.as(SUBS.operator, 'POST', `/v1/admin/messages/${sent.body.id}/release`)
    expect(released.body).toEqual({ id: sent.body.id, status: 'visible' })
    expect(await unread()).toBe(before + 1)
    expect(await api.db.select().from(jobs).where(eq(jobs.kind, 'notify.message'))).toHaveLength(1)
    expect((await api.as(SUBS.operator, 'POST', `/v1/admin/messages/${sent.body.id}/delete`)).status).toBe(
      409,
    )
    const [entry] = await api.db.select().from(auditLog).where(eq(auditLog.action, 'message_release'))
    expect(entry).toMatchObject({ actorId: operatorId, targetId: String(sent.body.id) })
  })

  it('a released message arrives when released: unread and last even if the recipient read the room meanwhile', async () => {
    const teacherId = await api.userId(SUBS.teacher)
    const roomId = (await api.as(SUBS.parent, 'POST', '/v1/rooms', { partner_id: teacherId })).body
      .id as number
    const held = await api.as(SUBS.parent, 'POST', `/v1/rooms/${roomId}/messages`, {
      body: 'ラインは hanako.mama です。ぜろきゅうぜろ いちにさんよん ごろくななはち',
    })
    expect(held.body.status).toBe('held')
    const next = await api.as(SUBS.parent, 'POST', `/v1/rooms/${roomId}/messages`, {
      body: 'よろしくお願いします',
    })
    expect(next.body.status).toBe('visible')
    expect((await api.as(SUBS.teacher, 'POST', `/v1/rooms/${roomId}/read`)).status).toBe(200)
    const room = async () =>
      (await api.as(SUBS.teacher, 'GET', '/v1/rooms')).body.find((r: { id: number }) => r.id === roomId)
    expect((await room()).unread_count).toBe(0)
    const before = api.database.now
    api.database.now = new Date(before.getTime() + 2 * 3_600_000)
    try {
      expect((await api.as(SUBS.operator, 'POST', `/v1/admin/messages/${held.body.id}/release`)).status).toBe(
        200,
      )
      const after = await room()
      expect(after.unread_count).toBe(1)
      expect(after.last_message.id).toBe(held.body.id)
      const theirs = (await api.as(SUBS.teacher, 'GET', `/v1/rooms/${roomId}/messages`)).body
      expect(theirs.at(-1).id).toBe(held.body.id)
    } finally {
      api.database.now = before
    }
  })

  it('an operator cannot release their own held message (409 own_account)', async () => {
    const teacherId = await api.userId(SUBS.teacher)
    const roomId = (await api.as(SUBS.operator, 'POST', '/v1/rooms', { partner_id: teacherId })).body
      .id as number
    const sent = await api.as(SUBS.operator, 'POST', `/v1/rooms/${roomId}/messages`, {
      body: 'インスタは hanako.mama です。ぜろきゅうぜろ いちにさんよん ごろくななはち',
    })
    expect(sent.body.status, JSON.stringify(sent.body)).toBe('held')
    const own = await api.as(SUBS.operator, 'POST', `/v1/admin/messages/${sent.body.id}/release`)
    expect([own.status, own.body.code]).toEqual([409, 'own_account'])
    const [row] = await api.db.select().from(messages).where(eq(messages.id, sent.body.id))
    expect(row!.status).toBe('held')
  })

  it('nor one sent to them, released or deleted (409 own_account)', async () => {
    const teacherId = await api.userId(SUBS.teacher)
    // The operator asks first (a room nobody has written in yet is not the teacher's to write into).
    const roomId = (
      await api.as(SUBS.operator, 'POST', '/v1/rooms', { partner_id: teacherId, body: 'ご質問です' })
    ).body.id as number
    const sent = await api.as(SUBS.teacher, 'POST', `/v1/rooms/${roomId}/messages`, {
      body: 'でんわは ぜろきゅうぜろ いちにさんよん ごろくななはち です',
    })
    expect(sent.body.status, JSON.stringify(sent.body)).toBe('held')
    for (const decision of ['release', 'delete']) {
      const res = await api.as(SUBS.operator, 'POST', `/v1/admin/messages/${sent.body.id}/${decision}`)
      expect([res.status, res.body.code]).toEqual([409, 'own_account'])
    }
    const [row] = await api.db.select().from(messages).where(eq(messages.id, sent.body.id))
    expect(row!.status).toBe('held')
  })

  it('a deleted message never reaches the recipient; its sender sees that it was removed', async () => {
    const teacherId = await api.userId(SUBS.teacher)
    const roomId = (await api.as(SUBS.parent, 'POST', '/v1/rooms', { partner_id: teacherId })).body
      .id as number
    const sent = await api.as(SUBS.parent, 'POST', `/v1/rooms/${roomId}/messages`, {
      body: 'メールは hanako アット example ドット com です',
    })
    expect(sent.body.status).toBe('held')
    expect(
      (await api.as(SUBS.operator, 'POST', `/v1/admin/messages/${sent.body.id}/delete`)).body.status,
    ).toBe('deleted')
    const theirs = (await api.as(SUBS.teacher, 'GET', `/v1/rooms/${roomId}/messages`)).body
    expect(theirs.map((m: { id: number }) => m.id)).not.toContain(sent.body.id)
    const own = (await api.as(SUBS.parent, 'GET', `/v1/rooms/${roomId}/messages`)).body
    expect(own.find((m: { id: number }) => m.id === sent.body.id).status).toBe('deleted')
    expect((await api.as(SUBS.operator, 'POST', '/v1/admin/messages/999999/release')).status).toBe(404)
    expect((await api.as(SUBS.operator, 'POST', '/v1/admin/messages/abc/release')).status).toBe(400)
  })
})
