import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { TeacherClassWork, TeacherSchedule } from '../../app/contract/v1/class-management'
import { CustomerList, OrganizationSales, Receipt, SalesReport } from '../../app/contract/v1/sales'
import { classWorkSchedules, purchases, refunds } from '../../app/db/schema'
import { tokyoAt } from '../../app/db/seed'
import { tokyoMonth } from '../../app/lib/month'
import { setupApi, type TestApi } from './support/api'
import { SUBS, tokenFor } from './support/tokens'

let api: TestApi
let month: string
let cls: TeacherClassWork
let bought: { id: number }[] = []
let before: SalesReport

/** A class of the demo teacher with hand-known purchases: 3 reservations at ¥1,500 (20% commission), one canceled. */
beforeAll(async () => {
  api = await setupApi()
  month = tokyoMonth(api.now)
  before = SalesReport.parse((await api.as(SUBS.teacher, 'GET', `/v1/teachers/sales?month=${month}`)).body)
  const [cats, styles, grades] = await Promise.all(
    ['categories', 'class_styles', 'target_grades'].map(
      async (k) => (await api.call('GET', `/v1/master/${k}`)).body,
    ),
  )
  const created = await api.as(SUBS.teacher, 'POST', '/v1/teachers/class_works', {
    title: '売上テスト, "引用" 教室',
    description: '売上の集計を確かめるクラス',
    category_id: cats[0].id,
    class_style_id: styles[0].id,
    target_grade_ids: [grades[0].id],
    price: 1500,
    capacity: 10,
    duration_minutes: 60,
    is_published: true,
  })
  cls = TeacherClassWork.parse(created.body)
  const s1 = TeacherSchedule.parse(
    (
      await api.as(SUBS.teacher, 'POST', `/v1/teachers/class_works/${cls.id}/schedules`, {
        // 06:00 in Tokyo: the demo teacher's seeded lessons start at 10:00 or later (one lesson at a time, 0056).
        started_at: tokyoAt(api.now, 3, 6).toISOString(),
        ended_at: tokyoAt(api.now, 3, 7).toISOString(),
      })
    ).body,
  )
  const s2 = TeacherSchedule.parse(
    (
      await api.as(SUBS.teacher, 'POST', `/v1/teachers/class_works/${cls.id}/schedules`, {
        started_at: tokyoAt(api.now, 5, 6).toISOString(),
        ended_at: tokyoAt(api.now, 5, 7).toISOString(),
      })
    ).body,
  )
  bought = []
  for (const [sub, sid] of [
    [SUBS.parent, s1.id],
    [SUBS.member01, s1.id],
    [SUBS.parent, s2.id],
  ] as const) {
    const res = await api.book(sub, { schedule_id: sid })
    expect(res.status, JSON.stringify(res.body)).toBe(201)
    bought.push(res.body)
  }
  // The parent cancels the s2 reservation (3 days ahead: within the rules) → a refund.
  const cancel = await api.as(SUBS.parent, 'POST', `/v1/purchases/${bought[2]!.id}/cancel`)
  expect(cancel.status, JSON.stringify(cancel.body)).toBe(200)
})
afterAll(async () => {
  await api?.close()
})

describe('GET /v1/teachers/sales', () => {
  it('sums per class by hand: 2 live × ¥1,500 (20% commission) and one refund', async () => {
    const res = await api.as(SUBS.teacher, 'GET', `/v1/teachers/sales?month=${month}`)
    expect(res.status).toBe(200)
    const report = SalesReport.parse(res.body)
    const row = report.by_class.find((c) => c.class_work_id === cls.id)
    expect(row).toEqual({
      class_work_id: cls.id,
      title: cls.title,
      gross: 3000,
      commission: 600,
      net: 2400,
      count: 2,
      refund_count: 1,
      refunded_amount: 1500,
    })
    // The month's totals moved by exactly this class's figures.
    expect(report.totals.gross - before.totals.gross).toBe(3000)
    expect(report.totals.commission - before.totals.commission).toBe(600)
    expect(report.totals.net - before.totals.net).toBe(2400)
    expect(report.totals.count - before.totals.count).toBe(2)
    expect(report.totals.refund_count - before.totals.refund_count).toBe(1)
    // Totals equal the sum of the classes.
    const sum = (k: 'gross' | 'commission' | 'count') => report.by_class.reduce((n, c) => n + c[k], 0)
    expect(report.totals.gross).toBe(sum('gross'))
    expect(report.totals.commission).toBe(sum('commission'))
    expect(report.totals.count).toBe(sum('count'))
    expect(report.purchases.filter((p) => p.class_work_id === cls.id)).toHaveLength(3)
  })

  it('is empty for a month without purchases and rejects a bad month', async () => {
    const empty = SalesReport.parse(
      (await api.as(SUBS.teacher, 'GET', '/v1/teachers/sales?month=2001-01')).body,
    )
    expect(empty.totals).toEqual({
      gross: 0,
      commission: 0,
      net: 0,
      count: 0,
      refund_count: 0,
      refunded_amount: 0,
    })
    const bad = await api.as(SUBS.teacher, 'GET', '/v1/teachers/sales?month=2026-13')
    expect(bad.status).toBe(400)
  })

  it('is 403 not_teacher for a member who does not teach', async () => {
    const res = await api.as(SUBS.parent, 'GET', '/v1/teachers/sales')
    expect([res.status, res.body.code]).toEqual([403, 'not_teacher'])
  })
})

describe('receipts', () => {
  it('shows the amounts of a purchase of the teacher’s class; another teacher gets 404', async () => {
    const res = await api.as(SUBS.teacher, 'GET', `/v1/teachers/sales/purchases/${bought[0]!.id}`)
    expect(res.status).toBe(200)
    expect(Receipt.parse(res.body)).toMatchObject({
      purchase_id: bought[0]!.id,
      price: 1500,
      commission: 300,
      net: 1200,
      class_work_title: cls.title,
      status: 'reserved',
    })
    expect((await api.as(SUBS.owner, 'GET', `/v1/teachers/sales/purchases/${bought[0]!.id}`)).status).toBe(
      404,
    )
  })
})

describe("what became of a cancelled seat's money", () => {
  const csvLine = async (purchaseId: number) => {
    const res = await api.app.fetch(
      new Request(`http://api.test/v1/teachers/sales.csv?month=${month}`, {
        headers: { authorization: `Bearer ${await tokenFor(SUBS.teacher)}` },
      }),
    )
    const text = new TextDecoder().decode(new Uint8Array(await res.arrayBuffer()).slice(3))
    return text.split('\r\n').find((l) => l.startsWith(`${purchaseId},`))
  }
  const receiptOf = async (purchaseId: number) =>
    Receipt.parse((await api.as(SUBS.teacher, 'GET', `/v1/teachers/sales/purchases/${purchaseId}`)).body)

  it('返金手続き中 until the provider paid it back, 返金済み after, and nothing said when nothing was paid', async () => {
    // The refund is made by a job after the cancellation (none has run here): the teacher is not told it was paid.
    const canceled = bought[2]!.id
    const [refund] = await api.db.select().from(refunds).where(eq(refunds.purchaseId, canceled))
    expect(refund!.status).toBe('pending')
    expect(await receiptOf(canceled)).toMatchObject({ status: 'canceled_by_user', refund: 'pending' })
    expect(await csvLine(canceled)).toMatch(/,キャンセル（返金手続き中）,/u)
    // Once the provider paid it back.
    await api.db.update(refunds).set({ status: 'succeeded' }).where(eq(refunds.id, refund!.id))
    expect(await receiptOf(canceled)).toMatchObject({ refund: 'refunded' })
    expect(await csvLine(canceled)).toMatch(/,キャンセル（返金済み）,/u)
    // A free class cancelled: nothing was paid, nothing is said to be refunded.
    const free = TeacherClassWork.parse(
      (
        await api.as(SUBS.teacher, 'POST', '/v1/teachers/class_works', {
          title: '無料の売上テスト',
          description: '無料クラス',
          category_id: cls.category.id,
          class_style_id: cls.class_style.id,
          target_grade_ids: cls.target_grades.map((g) => g.id),
          price: 0,
          capacity: 5,
          duration_minutes: 30,
          is_published: true,
        })
      ).body,
    )
    const s = TeacherSchedule.parse(
      (
        await api.as(SUBS.teacher, 'POST', `/v1/teachers/class_works/${free.id}/schedules`, {
          started_at: tokyoAt(api.now, 4, 6).toISOString(),
          ended_at: tokyoAt(api.now, 4, 6, 30).toISOString(),
        })
      ).body,
    )
    const seat = await api.book(SUBS.member01, { schedule_id: s.id })
    expect(seat.status).toBe(201)
    expect((await api.as(SUBS.member01, 'POST', `/v1/purchases/${seat.body.id}/cancel`)).status).toBe(200)
    expect(await receiptOf(seat.body.id)).toMatchObject({
      status: 'canceled_by_user',
      refund: 'none',
      price: 0,
    })
    expect(await csvLine(seat.body.id)).toMatch(/,キャンセル,/u)
    // A reserved seat is only reserved.
    expect(await receiptOf(bought[0]!.id)).toMatchObject({ status: 'reserved', refund: 'none' })
  })
})

describe('GET /v1/teachers/sales.csv', () => {
  it('is UTF-8 with BOM, a header row and RFC 4180 quoting', async () => {
    const res = await api.app.fetch(
      new Request(`http://api.test/v1/teachers/sales.csv?month=${month}`, {
        headers: { authorization: `Bearer ${await tokenFor(SUBS.teacher)}` },
      }),
    )
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8')
    expect(res.headers.get('content-disposition')).toContain(`filename="sales-${month}.csv"`)
    const bytes = new Uint8Array(await res.arrayBuffer())
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
    const text = new TextDecoder().decode(bytes.slice(3))
    const lines = text.split('\r\n')
    expect(lines[0]).toBe(
      '購入ID,予約日時,クラスID,クラス,開催日時,購入者,受講者,金額,手数料,売上（手数料差引後）,状態,キャンセル日時',
    )
    // The title holds a comma and quotes: quoted, quotes doubled.
    const mine = lines.filter((l) => l.includes('"売上テスト, ""引用"" 教室"'))
    expect(mine).toHaveLength(3)
    expect(mine.some((l) => l.includes(',1500,300,1200,予約済み,'))).toBe(true)
    // A cancelled seat: no commission (its refund gave everything back), so the columns add up to the totals.
    expect(mine.some((l) => l.includes(',1500,0,0,キャンセル（返金済み）,'))).toBe(true)
    expect(text.endsWith('\r\n')).toBe(true)
  })

  it('holds every line of the month, past the 2,000 the report page lists', async () => {
    const [schedule] = await api.db
      .select({ id: classWorkSchedules.id })
      .from(classWorkSchedules)
      .where(eq(classWorkSchedules.classWorkId, cls.id))
      .limit(1)
    const buyer = await api.userId(SUBS.parent)
    await api.db.insert(purchases).values(
      Array.from({ length: 2001 }, () => ({
        scheduleId: schedule!.id,
        userId: buyer,
        price: 100,
        commission: 20,
        status: 'canceled_by_user',
        canceledAt: api.now,
        createdAt: api.now,
      })),
    )
    const report = SalesReport.parse(
      (await api.as(SUBS.teacher, 'GET', `/v1/teachers/sales?month=${month}`)).body,
    )
    expect(report.purchases).toHaveLength(2000)
    const res = await api.app.fetch(
      new Request(`http://api.test/v1/teachers/sales.csv?month=${month}`, {
        headers: { authorization: `Bearer ${await tokenFor(SUBS.teacher)}` },
      }),
    )
    const rows = new TextDecoder().decode(new Uint8Array(await res.arrayBuffer()).slice(3)).split('\r\n')
    // Header, every line of the month (the 2,001 above and the earlier ones), the empty string after the last CRLF.
    expect(rows.length - 2).toBeGreaterThan(2001)
    // Cancelled: the price, with no commission and no net (the refund gave both back).
    expect(rows.filter((r) => r.includes(',100,0,0,キャンセル')).length).toBe(2001)
  })

  it('needs a teacher', async () => {
    const res = await api.as(SUBS.parent, 'GET', `/v1/teachers/sales.csv?month=${month}`)
    expect(res.status).toBe(403)
  })
})

describe('customers', () => {
  it('lists members with live reservations and their counts', async () => {
    const res = await api.as(SUBS.teacher, 'GET', '/v1/teachers/customers')
    expect(res.status).toBe(200)
    const list = CustomerList.parse(res.body)
    const member01 = await api.userId(SUBS.member01)
    const c = list.find((x) => x.user.id === member01)
    expect(c).toBeDefined()
    expect(c!.reservation_count).toBeGreaterThanOrEqual(1)
    expect(c!.next_lesson_at).not.toBeNull()
    expect(JSON.stringify(res.body)).not.toContain('@manabi.example')
  })
})

describe('GET /v1/organizations/me/sales', () => {
  it('rolls the organisation’s sales up per member (owner only)', async () => {
    const res = await api.as(SUBS.owner, 'GET', `/v1/organizations/me/sales?month=${month}`)
    expect(res.status).toBe(200)
    const report = OrganizationSales.parse(res.body)
    expect(report.by_member.length).toBeGreaterThanOrEqual(2)
    expect(report.totals.gross).toBe(report.by_member.reduce((n, m) => n + m.gross, 0))
    expect(report.totals.count).toBe(report.by_member.reduce((n, m) => n + m.count, 0))
    // A member teacher (not the owner) and an outsider see nothing.
    expect((await api.as(SUBS.emily, 'GET', '/v1/organizations/me/sales')).status).toBe(404)
    expect((await api.as(SUBS.teacher, 'GET', '/v1/organizations/me/sales')).status).toBe(404)
  })

  it('matches a hand count from the purchases table', async () => {
    const report = OrganizationSales.parse(
      (await api.as(SUBS.owner, 'GET', `/v1/organizations/me/sales?month=${month}`)).body,
    )
    const rows = await api.db.select().from(purchases).where(eq(purchases.status, 'reserved'))
    expect(rows.length).toBeGreaterThan(0)
    for (const m of report.by_member) expect(m.net).toBe(m.gross - m.commission)
  })
})
