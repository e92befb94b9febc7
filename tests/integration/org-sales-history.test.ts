import { eq, isNotNull, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { TeacherClassWork, TeacherSchedule } from '../../app/contract/v1/class-management'
import { StudentList } from '../../app/contract/v1/class-works'
import { InvitationCode } from '../../app/contract/v1/organizations'
import { OrganizationSales, Receipt } from '../../app/contract/v1/sales'
import { classWorkSchedules, classWorks, organizations, purchases } from '../../app/db/schema'
import { tokyoAt } from '../../app/db/seed'
import { tokyoMonth } from '../../app/lib/month'
import { setupApi, type TestApi } from './support/api'
import { loadMasters, postClass, postSchedule } from './support/classes'
import { whileHeld } from './support/locks'
import { migrationStatement } from './support/migrations'
import { insertMembers } from './support/people'
import { SUBS } from './support/tokens'

/**
 * A purchase counts for the organisation its class belonged to when the seat was reserved (migration 0030):
 * the demo teacher sells a seat alone, joins the demo organisation, sells another, and is removed.
 */
let api: TestApi
let month: string
let teacherId: number
let orgName: string
let schedule: TeacherSchedule

beforeAll(async () => {
  api = await setupApi()
  month = tokyoMonth(api.now)
  teacherId = await api.userId(SUBS.teacher)
  const masters = await loadMasters(api)
  const cls = TeacherClassWork.parse(
    (await postClass(api, masters, SUBS.teacher, { price: 2000, capacity: 10, is_published: true })).body,
  )
  schedule = TeacherSchedule.parse(
    // 06:00 in Tokyo: the demo teacher's seeded lessons start at 10:00 or later (one lesson at a time, 0056).
    (await postSchedule(api, SUBS.teacher, cls.id, tokyoAt(api.now, 4, 6))).body,
  )
  const [org] = await api.db.select({ name: organizations.name }).from(organizations).limit(1)
  orgName = org!.name
})
afterAll(async () => {
  await api?.close()
})

const orgSales = async () =>
  OrganizationSales.parse((await api.as(SUBS.owner, 'GET', `/v1/organizations/me/sales?month=${month}`)).body)
const receiptOf = async (id: number) =>
  Receipt.parse((await api.as(SUBS.teacher, 'GET', `/v1/teachers/sales/purchases/${id}`)).body)

describe('organisation sales follow the organisation at the time of the purchase', () => {
  let alone: number
  let inOrg: number
  let totalsBefore: OrganizationSales['totals']

  it('a teacher who joins brings none of their earlier sales', async () => {
    const sold = await api.book(SUBS.parent, { schedule_id: schedule.id })
    expect(sold.status, JSON.stringify(sold.body)).toBe(201)
    alone = sold.body.id
    totalsBefore = (await orgSales()).totals

    const { invitation_code } = InvitationCode.parse(
      (await api.as(SUBS.owner, 'GET', '/v1/org_users/invitation_code')).body,
    )
    expect((await api.as(SUBS.teacher, 'POST', '/v1/org_users/join', { invitation_code })).status).toBe(200)

    const after = await orgSales()
    expect(after.totals).toEqual(totalsBefore)
    expect(after.by_member.find((m) => m.user_id === teacherId)).toMatchObject({
      former_member: false,
      count: 0,
      gross: 0,
    })
    // The receipt of the seat sold alone names no organisation, as it did when it was sold.
    expect((await receiptOf(alone)).organization_name).toBeNull()
  })

  it('a seat sold as a member counts for the organisation and names it on the receipt', async () => {
    const sold = await api.book(SUBS.member01, { schedule_id: schedule.id })
    expect(sold.status, JSON.stringify(sold.body)).toBe(201)
    inOrg = sold.body.id
    const report = await orgSales()
    expect(report.totals.gross).toBe(totalsBefore.gross + 2000)
    expect(report.totals.count).toBe(totalsBefore.count + 1)
    expect(report.by_member.find((m) => m.user_id === teacherId)).toMatchObject({ count: 1, gross: 2000 })
    expect((await receiptOf(inOrg)).organization_name).toBe(orgName)
    // Nor does joining bring the children who booked before it: the owner sees the seat sold as a member only,
    // the teacher both.
    const students = async (sub: string) =>
      StudentList.parse(
        (await api.as(sub, 'GET', `/v1/teachers/my_class_work_schedules/${schedule.id}/students`)).body,
      )
        .map((s) => s.purchase_id)
        .sort((a, b) => a - b)
    expect(await students(SUBS.owner)).toEqual([inOrg])
    expect(await students(SUBS.teacher)).toEqual([alone, inOrg])
  })

  it('a teacher who is removed keeps their sales there, listed as a former member', async () => {
    const before = await orgSales()
    expect((await api.as(SUBS.owner, 'DELETE', `/v1/org_users/${teacherId}`)).status).toBe(200)
    const after = await orgSales()
    expect(after.totals).toEqual(before.totals)
    const former = after.by_member.filter((m) => m.former_member)
    expect(former).toEqual([
      expect.objectContaining({ user_id: teacherId, former_member: true, count: 1, gross: 2000 }),
    ])
    // Current members come first; the former member last.
    expect(after.by_member.at(-1)!.user_id).toBe(teacherId)
    expect(after.totals.gross).toBe(after.by_member.reduce((n, m) => n + m.gross, 0))
    expect((await receiptOf(inOrg)).organization_name).toBe(orgName)
    expect((await receiptOf(alone)).organization_name).toBeNull()

    // A seat sold after leaving is the teacher's alone again.
    const sold = await api.book(SUBS.emily, { schedule_id: schedule.id })
    expect(sold.status, JSON.stringify(sold.body)).toBe(201)
    expect((await orgSales()).totals).toEqual(after.totals)
    expect((await receiptOf(sold.body.id)).organization_name).toBeNull()
  })

  it('the migration fills the column from the class’s organisation for purchases made before it', async () => {
    const [counted] = await api.db
      .select({ count: sql<number>`count(*)::int` })
      .from(purchases)
      .where(isNotNull(purchases.organizationId))
    expect(Number(counted!.count)).toBeGreaterThan(0)
    const expected = await api.db
      .select({ id: purchases.id, org: classWorks.organizationId })
      .from(purchases)
      .innerJoin(classWorkSchedules, eq(classWorkSchedules.id, purchases.scheduleId))
      .innerJoin(classWorks, eq(classWorks.id, classWorkSchedules.classWorkId))
      .where(isNotNull(classWorks.organizationId))
    await api.db.update(purchases).set({ organizationId: null })
    const backfill = migrationStatement(
      '0030_purchase_organization.sql',
      '-- Purchases made before this column',
    )
    await api.db.execute(sql.raw(backfill))
    const rows = await api.db
      .select({ id: purchases.id, org: purchases.organizationId })
      .from(purchases)
      .where(isNotNull(purchases.organizationId))
    expect(new Map(rows.map((r) => [r.id, r.org]))).toEqual(new Map(expected.map((r) => [r.id, r.org])))
  })
})

describe.skipIf(!process.env.TEST_DATABASE_URL)(
  'a booking racing a change of organisation (PostgreSQL)',
  () => {
    let orgId: number
    let crowdSchedule: TeacherSchedule
    let classId: number
    beforeAll(async () => {
      const { invitation_code } = InvitationCode.parse(
        (await api.as(SUBS.owner, 'GET', '/v1/org_users/invitation_code')).body,
      )
      expect((await api.as(SUBS.teacher, 'POST', '/v1/org_users/join', { invitation_code })).status).toBe(200)
      const cls = TeacherClassWork.parse(
        (
          await postClass(api, await loadMasters(api), SUBS.teacher, {
            price: 1500,
            capacity: 20,
            is_published: true,
          })
        ).body,
      )
      classId = cls.id
      orgId = cls.organization_id!
      crowdSchedule = TeacherSchedule.parse(
        (await postSchedule(api, SUBS.teacher, cls.id, tokyoAt(api.now, 5, 6))).body,
      )
    })
    const orgOfPurchase = async (id: number) =>
      (await api.db.select({ org: purchases.organizationId }).from(purchases).where(eq(purchases.id, id)))[0]!
        .org

    it('a booking that arrives while the class leaves the organisation waits, and is the teacher’s alone', async () => {
      const [sub] = await insertMembers(api.db, 'org-race', 1)
      // What the removal holds until it commits: the class row, moved out of the organisation.
      const sold = await whileHeld(
        api,
        async (tx) => {
          await tx.update(classWorks).set({ organizationId: null }).where(eq(classWorks.id, classId))
        },
        () => api.book(sub!, { schedule_id: crowdSchedule.id }),
      )
      expect(sold.status, JSON.stringify(sold.body)).toBe(201)
      expect(await orgOfPurchase(sold.body.id)).toBeNull()
      await api.db.update(classWorks).set({ organizationId: orgId }).where(eq(classWorks.id, classId))
    })

    it('six bookings and the teacher’s removal at once: all answer, each seat counts for where its class was', async () => {
      const subs = await insertMembers(api.db, 'org-crowd', 6)
      const countOf = async () =>
        (await orgSales()).by_member.find((m) => m.user_id === teacherId)?.count ?? 0
      const before = await countOf()
      const [removal, ...sold] = await Promise.all([
        api.as(SUBS.owner, 'DELETE', `/v1/org_users/${teacherId}`),
        ...subs.map((sub) => api.book(sub, { schedule_id: crowdSchedule.id })),
      ])
      expect(removal!.status).toBe(200)
      for (const s of sold) expect(s.status, JSON.stringify(s.body)).toBe(201)
      const orgs = await Promise.all(sold.map((s) => orgOfPurchase(s.body.id)))
      for (const org of orgs) expect([orgId, null]).toContain(org)
      // The organisation's report and the receipts agree on every one of them.
      const inOrg = orgs.filter((o) => o === orgId).length
      expect(await countOf()).toBe(before + inOrg)
      for (const [i, s] of sold.entries())
        expect((await receiptOf(s.body.id)).organization_name).toBe(orgs[i] === orgId ? orgName : null)
    })
  },
)
