import { and, desc, eq, gte, lt, type SQL, sql } from 'drizzle-orm'
import type {
  Customer,
  OrganizationSales,
  Receipt,
  SalesFigures,
  SalesLine,
  SalesReport,
} from '../../contract/v1/sales'
import type { Db } from '../../db/client'
import {
  classWorkScheduleLessons,
  classWorkSchedules,
  classWorks,
  learners,
  organizations,
  orgUsers,
  payments,
  purchases,
  refunds,
  users,
} from '../../db/schema'
import { csvBytes } from '../../lib/csv'
import { tokyoMonth, tokyoMonthRange } from '../../lib/month'
import { SALES_CSV_HEADER, salesCsvRows } from '../../lib/sales-csv'
import type { UserRow } from '../auth'
import { ApiError, notFound } from '../errors'
import { iso } from './class-cards'
import { requireTeacher } from './class-management'

/**
 * Sales management (issue #7). A purchase belongs to the Tokyo month it was made in. Live reservations are
 * sales (gross = price, commission as stored on the purchase, net = gross − commission); canceled ones are
 * refunds, shown apart and never in the sales figures. Sums are computed in SQL.
 */

const live = sql`${purchases.status} = 'reserved'`
const figureColumns = {
  gross: sql<number>`coalesce(sum(${purchases.price}) filter (where ${live}), 0)::int`,
  commission: sql<number>`coalesce(sum(${purchases.commission}) filter (where ${live}), 0)::int`,
  count: sql<number>`(count(*) filter (where ${live}))::int`,
  refundCount: sql<number>`(count(*) filter (where not ${live}))::int`,
  refundedAmount: sql<number>`coalesce(sum(${purchases.price}) filter (where not ${live}), 0)::int`,
}

type FigureRow = {
  gross: number
  commission: number
  count: number
  refundCount: number
  refundedAmount: number
}

function figures(r: FigureRow | undefined): SalesFigures {
  const gross = Number(r?.gross ?? 0)
  const commission = Number(r?.commission ?? 0)
  return {
    gross,
    commission,
    net: gross - commission,
    count: Number(r?.count ?? 0),
    refund_count: Number(r?.refundCount ?? 0),
    refunded_amount: Number(r?.refundedAmount ?? 0),
  }
}

/**
 * Purchases of a Tokyo month that are sales or refunds: a seat held while paying (pending) or given back unpaid
 * (expired) never moved money (issue 17).
 */
function inMonth(month: string): SQL {
  const { start, end } = tokyoMonthRange(month)
  return and(
    gte(purchases.createdAt, start),
    lt(purchases.createdAt, end),
    sql`${purchases.status} not in ('pending', 'expired')`,
  )!
}

const ownClass = (teacherId: number) => eq(classWorks.teacherId, teacherId)

const lineColumns = {
  id: purchases.id,
  createdAt: purchases.createdAt,
  classWorkId: classWorks.id,
  title: classWorks.title,
  startedAt: classWorkSchedules.startedAt,
  buyer: users.nickname,
  learner: learners.nickname,
  price: purchases.price,
  commission: purchases.commission,
  status: purchases.status,
  canceledAt: purchases.canceledAt,
  organizationId: purchases.organizationId,
  // What became of a cancelled seat's money (a free seat paid nothing; a refund may still be at the provider).
  refund: sql<SalesLine['refund']>`case
    when ${purchases.status} = 'reserved' then 'none'
    when exists (select 1 from ${refunds} where ${refunds.purchaseId} = ${purchases.id}
      and ${refunds.status} = 'succeeded') then 'refunded'
    when exists (select 1 from ${payments} where ${payments.purchaseId} = ${purchases.id}
      and ${payments.status} = 'succeeded') then 'pending'
    else 'none' end`,
}

function selectLines(db: Db) {
  return db
    .select(lineColumns)
    .from(purchases)
    .innerJoin(classWorkSchedules, eq(classWorkSchedules.id, purchases.scheduleId))
    .innerJoin(classWorks, eq(classWorks.id, classWorkSchedules.classWorkId))
    .innerJoin(users, eq(users.id, purchases.userId))
    .leftJoin(learners, eq(learners.id, purchases.learnerId))
}

type LineRow = Awaited<ReturnType<ReturnType<typeof selectLines>['execute']>>[number]

const toLine = (r: LineRow): SalesLine => ({
  purchase_id: r.id,
  created_at: iso(r.createdAt),
  class_work_id: r.classWorkId,
  class_work_title: r.title,
  schedule_started_at: iso(r.startedAt),
  buyer_nickname: r.buyer,
  learner_nickname: r.learner ?? null,
  price: r.price,
  commission: r.commission,
  net: r.price - r.commission,
  status: r.status as SalesLine['status'],
  canceled_at: r.canceledAt ? iso(r.canceledAt) : null,
  refund: r.refund,
})

/** Lines the report page shows (its totals count every line, in SQL). */
const LINE_LIMIT = 2000
/**
 * Lines a month's CSV may hold. The CSV is the teacher's bookkeeping: it holds every line of the month or none
 * (422), never a silent part of it.
 */
export const CSV_LINE_LIMIT = 50_000

async function monthLines(
  db: Db,
  teacherId: number,
  month: string,
  limit = LINE_LIMIT,
): Promise<SalesLine[]> {
  const rows = await selectLines(db)
    .where(and(ownClass(teacherId), inMonth(month)))
    .orderBy(desc(purchases.createdAt), desc(purchases.id))
    .limit(limit)
  return rows.map(toLine)
}

/** GET /v1/teachers/sales?month=YYYY-MM (default: this month in Tokyo). */
export async function salesReport(
  db: Db,
  user: UserRow,
  month: string | undefined,
  now: Date,
): Promise<SalesReport> {
  requireTeacher(user)
  const m = month ?? tokyoMonth(now)
  const [byClass, lines] = await Promise.all([
    db
      .select({ ...figureColumns, classWorkId: classWorks.id, title: classWorks.title })
      .from(purchases)
      .innerJoin(classWorkSchedules, eq(classWorkSchedules.id, purchases.scheduleId))
      .innerJoin(classWorks, eq(classWorks.id, classWorkSchedules.classWorkId))
      .where(and(ownClass(user.id), inMonth(m)))
      .groupBy(classWorks.id, classWorks.title)
      .orderBy(sql`2 desc`, classWorks.id),
    monthLines(db, user.id, m),
  ])
  return {
    month: m,
    // The sum of the rows below, not a query of its own: two reads in parallel see different moments (a booking
    // between them), and the totals would not add up.
    totals: figures(sumFigures(byClass)),
    by_class: byClass
      .map((r) => ({ class_work_id: r.classWorkId, title: r.title, ...figures(r) }))
      .sort((a, b) => b.gross - a.gross || a.class_work_id - b.class_work_id),
    purchases: lines,
  }
}

/** GET /v1/teachers/sales/purchases/{id}: the receipt of a purchase of one of the caller's classes. */
export async function receipt(db: Db, user: UserRow, purchaseId: number): Promise<Receipt> {
  requireTeacher(user)
  const [row] = await selectLines(db)
    .where(
      and(
        ownClass(user.id),
        eq(purchases.id, purchaseId),
        sql`${purchases.status} not in ('pending', 'expired')`,
      ),
    )
    .limit(1)
  if (!row) throw notFound('購入履歴')
  // The organisation the class belonged to when the seat was reserved, not the teacher's now.
  const [org] = row.organizationId
    ? await db
        .select({ name: organizations.name })
        .from(organizations)
        .where(eq(organizations.id, row.organizationId))
    : []
  return {
    ...toLine(row),
    teacher_name: user.name,
    teacher_nickname: user.nickname,
    organization_name: org?.name ?? null,
  }
}

/** GET /v1/teachers/sales.csv?month=YYYY-MM: UTF-8 with BOM, header row, RFC 4180 quoting. */
export async function salesCsv(db: Db, user: UserRow, month: string | undefined, now: Date) {
  requireTeacher(user)
  const m = month ?? tokyoMonth(now)
  const lines = await monthLines(db, user.id, m, CSV_LINE_LIMIT + 1)
  if (lines.length > CSV_LINE_LIMIT)
    throw new ApiError(
      422,
      'too_many_lines',
      `1か月の明細が${CSV_LINE_LIMIT.toLocaleString('ja-JP')}件を超えるため、CSVを作成できません。お問い合わせください`,
    )
  return { month: m, bytes: csvBytes(SALES_CSV_HEADER, salesCsvRows(lines)) }
}

/** GET /v1/teachers/customers: members with live reservations on the caller's classes. */
export async function customers(db: Db, user: UserRow, now: Date): Promise<Customer[]> {
  requireTeacher(user)
  const at = now.toISOString()
  // Each lesson of a 全N回 run counts by its own start (0024): after lesson 1, lessons 2–N are still to come.
  const lessonStart = sql`coalesce(${classWorkScheduleLessons.startedAt}, ${classWorkSchedules.startedAt})`
  const count = sql<number>`count(distinct ${purchases.id})::int`
  const rows = await db
    .select({
      userId: users.id,
      nickname: users.nickname,
      avatarUrl: users.avatarUrl,
      count,
      last: sql<Date | null>`max(${lessonStart}) filter (where ${lessonStart} <= ${at}::timestamptz)`,
      next: sql<Date | null>`min(${lessonStart}) filter (where ${lessonStart} > ${at}::timestamptz)`,
    })
    .from(purchases)
    .innerJoin(classWorkSchedules, eq(classWorkSchedules.id, purchases.scheduleId))
    .leftJoin(classWorkScheduleLessons, eq(classWorkScheduleLessons.scheduleId, classWorkSchedules.id))
    .innerJoin(classWorks, eq(classWorks.id, classWorkSchedules.classWorkId))
    .innerJoin(users, eq(users.id, purchases.userId))
    .where(and(ownClass(user.id), live))
    .groupBy(users.id, users.nickname, users.avatarUrl)
    .orderBy(sql`${count} desc`, users.id)
    .limit(500)
  const isoOf = (v: Date | string | null) => (v ? new Date(v).toISOString() : null)
  return rows.map((r) => ({
    user: { id: r.userId, nickname: r.nickname, avatar_url: r.avatarUrl },
    reservation_count: Number(r.count),
    last_lesson_at: isoOf(r.last),
    next_lesson_at: isoOf(r.next),
  }))
}

/**
 * GET /v1/organizations/me/sales?month=YYYY-MM: the owner's roll-up of the organisation's sales, per member. A
 * purchase counts for the organisation its class belonged to when the seat was reserved: a teacher who joined
 * later brings none of their earlier months, and one who left keeps theirs here, listed as a former member.
 */
export async function organizationSales(
  db: Db,
  user: UserRow,
  month: string | undefined,
  now: Date,
): Promise<OrganizationSales> {
  const [org] = await db
    .select({ id: organizations.id })
    .from(organizations)
    .innerJoin(orgUsers, and(eq(orgUsers.organizationId, organizations.id), eq(orgUsers.userId, user.id)))
    .where(and(eq(organizations.ownerId, user.id), eq(orgUsers.role, 'owner')))
    .limit(1)
  if (!org) throw notFound('団体')
  const m = month ?? tokyoMonth(now)
  const ofOrg = and(eq(purchases.organizationId, org.id), inMonth(m))
  const [byTeacher, members] = await Promise.all([
    db
      .select({ ...figureColumns, teacherId: classWorks.teacherId, nickname: users.nickname })
      .from(purchases)
      .innerJoin(classWorkSchedules, eq(classWorkSchedules.id, purchases.scheduleId))
      .innerJoin(classWorks, eq(classWorks.id, classWorkSchedules.classWorkId))
      .innerJoin(users, eq(users.id, classWorks.teacherId))
      .where(ofOrg)
      .groupBy(classWorks.teacherId, users.nickname),
    db
      .select({ userId: users.id, nickname: users.nickname })
      .from(orgUsers)
      .innerJoin(users, eq(users.id, orgUsers.userId))
      .where(eq(orgUsers.organizationId, org.id))
      .orderBy(sql`case when ${orgUsers.role} = 'owner' then 0 else 1 end`, orgUsers.joinedAt, users.id),
  ])
  const byId = new Map(byTeacher.map((r) => [r.teacherId, r]))
  const memberIds = new Set(members.map((mem) => mem.userId))
  const former = byTeacher
    .filter((r) => !memberIds.has(r.teacherId))
    .sort((a, b) => a.teacherId - b.teacherId)
  return {
    month: m,
    totals: figures(sumFigures(byTeacher)),
    by_member: [
      ...members.map((mem) => ({
        user_id: mem.userId,
        nickname: mem.nickname,
        former_member: false,
        ...figures(byId.get(mem.userId)),
      })),
      ...former.map((r) => ({
        user_id: r.teacherId,
        nickname: r.nickname,
        former_member: true,
        ...figures(r),
      })),
    ],
  }
}

/** The sum of per-teacher figure rows (the organisation's totals: each purchase is in exactly one of them). */
function sumFigures(rows: FigureRow[]): FigureRow {
  const total: FigureRow = { gross: 0, commission: 0, count: 0, refundCount: 0, refundedAmount: 0 }
  for (const r of rows) for (const k of Object.keys(total) as (keyof FigureRow)[]) total[k] += Number(r[k])
  return total
}
