import { and, asc, desc, eq, gte, inArray, lt, lte, type SQL, sql } from 'drizzle-orm'
import type {
  ClassWorkDetail,
  ClassWorkSearchResult,
  CloseToStart,
  MyClassWork,
  SearchSort,
} from '../../contract/v1/class-works'
import type { Db } from '../../db/client'
import { classWorkSchedules, classWorks, classWorkTargetGrades, organizations } from '../../db/schema'
import { gramsTsquery } from '../../lib/search-bigrams'
import { searchTerms } from '../../lib/search-normalize'
import { notFound } from '../errors'
import {
  iso,
  type ScheduleRow,
  scheduleColumns,
  selectClassRows,
  summaryJson,
  toCards,
  toPublicSchedule,
} from './class-cards'

export const SEARCH_PER_PAGE = 20
const DAY = 86_400_000

/** Newest published classes. */
export async function newArrivals(db: Db, now: Date, limit = 12) {
  const rows = await selectClassRows(db)
    .where(eq(classWorks.isPublished, true))
    .orderBy(desc(classWorks.createdAt), desc(classWorks.id))
    .limit(limit)
  return toCards(db, rows, now)
}

const upcomingOpen = (now: Date) =>
  and(eq(classWorkSchedules.isCanceled, false), gte(classWorkSchedules.startedAt, now))

/** Upcoming schedules of published classes, soonest first (one row per schedule). */
export async function closeToStarts(db: Db, now: Date, limit = 12): Promise<CloseToStart[]> {
  const schedules = await db
    .select(scheduleColumns)
    .from(classWorkSchedules)
    .innerJoin(classWorks, eq(classWorks.id, classWorkSchedules.classWorkId))
    .where(and(upcomingOpen(now), eq(classWorks.isPublished, true)))
    .orderBy(asc(classWorkSchedules.startedAt), asc(classWorkSchedules.id))
    .limit(limit)
  if (schedules.length === 0) return []
  const ids = [...new Set(schedules.map((s) => s.classWorkId))]
  const cards = await toCards(db, await selectClassRows(db).where(inArray(classWorks.id, ids)), now)
  const cardOf = new Map(cards.map((c) => [c.id, c]))
  return schedules.map((s) => ({ schedule: toPublicSchedule(s), class_work: cardOf.get(s.classWorkId)! }))
}

/** Published classes ordered by their next upcoming schedule (one row per class). */
export async function closeToStartsByClass(db: Db, now: Date, limit = 12) {
  const next = db
    .select({
      classWorkId: classWorkSchedules.classWorkId,
      startsAt: sql<Date>`min(${classWorkSchedules.startedAt})`.as('starts_at'),
    })
    .from(classWorkSchedules)
    .where(upcomingOpen(now))
    .groupBy(classWorkSchedules.classWorkId)
    .as('next')
  const rows = await selectClassRows(db)
    .innerJoin(next, eq(next.classWorkId, classWorks.id))
    .where(eq(classWorks.isPublished, true))
    .orderBy(asc(next.startsAt), asc(classWorks.id))
    .limit(limit)
  return toCards(db, rows, now)
}

export interface SearchParams {
  q?: string
  category?: number
  grade?: number
  style?: number
  price_min?: number
  price_max?: number
  from?: string
  to?: string
  sort?: SearchSort
  page?: number
}

/** Midnight at the start of a Tokyo calendar day (YYYY-MM-DD). */
function tokyoDayStart(day: string): Date {
  return new Date(`${day}T00:00:00+09:00`)
}

/**
 * The WHERE and ORDER BY of a class search, shared by the API and the benchmark (scripts/bench-search.ts).
 *
 * Keyword: the query is normalized like search_text (app/lib/search-normalize.ts) and split on spaces; every term
 * must match. The GIN expression index on class_search_bigrams(search_text) (unigrams + bigrams, migrations
 * 0002/0003) finds the candidates (`@@` all grams of all terms, so 1- and 2-character terms such as 陶芸 use the
 * index too), then `strpos(search_text, term)` rechecks each longer term exactly (bigrams do not prove adjacency;
 * strpos has no LIKE escaping rules).
 *
 * Order: with a keyword, relevance comes first — the number of terms found in the title (search_title), so title
 * matches rank above description / teacher / category matches — and the chosen sort (default `new`) breaks ties
 * within the same relevance; without a keyword, the chosen sort alone. The class id is always the last tie-breaker
 * so paging is stable.
 */
export function classWorkSearchClauses(
  p: SearchParams,
  now: Date,
): { condition: SQL | undefined; order: SQL[]; sortsEveryMatch: boolean } {
  const where: SQL[] = [eq(classWorks.isPublished, true)]
  const terms = searchTerms(p.q)
  const grams = gramsTsquery(terms)
  if (grams) where.push(sql`class_search_bigrams(${classWorks.searchText}) @@ ${grams}::tsquery`)
  // A 1- or 2-character term is its own gram, so the index match is already exact; longer terms are rechecked.
  for (const term of terms) {
    if (Array.from(term).length > 2) where.push(sql`strpos(${classWorks.searchText}, ${term}) > 0`)
  }
  if (p.category !== undefined) where.push(eq(classWorks.categoryId, p.category))
  if (p.style !== undefined) where.push(eq(classWorks.classStyleId, p.style))
  if (p.price_min !== undefined) where.push(gte(classWorks.price, p.price_min))
  if (p.price_max !== undefined) where.push(lte(classWorks.price, p.price_max))
  if (p.grade !== undefined) {
    where.push(
      sql`exists (select 1 from ${classWorkTargetGrades} where ${classWorkTargetGrades.classWorkId} = ${classWorks.id} and ${classWorkTargetGrades.targetGradeId} = ${p.grade})`,
    )
  }
  if (p.from !== undefined || p.to !== undefined) {
    const range: SQL[] = [eq(classWorkSchedules.isCanceled, false)]
    if (p.from) range.push(gte(classWorkSchedules.startedAt, tokyoDayStart(p.from)))
    if (p.to) range.push(lt(classWorkSchedules.startedAt, new Date(tokyoDayStart(p.to).getTime() + DAY)))
    where.push(
      sql`exists (select 1 from ${classWorkSchedules} where ${classWorkSchedules.classWorkId} = ${classWorks.id} and ${and(...range)})`,
    )
  }

  const nextStart = sql`(select min(${classWorkSchedules.startedAt}) from ${classWorkSchedules} where ${classWorkSchedules.classWorkId} = ${classWorks.id} and ${classWorkSchedules.isCanceled} = false and ${classWorkSchedules.startedAt} >= ${now.toISOString()}::timestamptz)`
  const popularity = sql`(select coalesce(sum(${classWorkSchedules.purchasedCount}), 0) from ${classWorkSchedules} where ${classWorkSchedules.classWorkId} = ${classWorks.id} and ${classWorkSchedules.isCanceled} = false)`
  const sorts: Record<SearchSort, SQL[]> = {
    new: [desc(classWorks.createdAt), desc(classWorks.id)],
    start: [sql`${nextStart} asc nulls last`, desc(classWorks.id)],
    price_asc: [asc(classWorks.price), desc(classWorks.id)],
    price_desc: [desc(classWorks.price), desc(classWorks.id)],
    popular: [sql`${popularity} desc`, desc(classWorks.id)],
  }
  const order = sorts[p.sort ?? 'new']
  if (terms.length > 0) {
    const inTitle = sql.join(
      terms.map((term) => sql`(strpos(${classWorks.searchTitle}, ${term}) > 0)::int`),
      sql` + `,
    )
    order.unshift(sql`(${inTitle}) desc`)
  }
  // With a keyword, or by next start / popularity, no index yields the order: every match is sorted.
  const sortsEveryMatch = terms.length > 0 || p.sort === 'start' || p.sort === 'popular'
  return { condition: and(...where), order, sortsEveryMatch }
}

/**
 * The count and the page of a class search, unexecuted (the benchmark EXPLAINs them). The page selects only ids, so
 * the sort runs on class_works alone and the joins a card needs are made for the 20 rows of the page only.
 * `pageWithTotal` is the page with `count(*) over ()`: one pass when the page has to sort every match anyway.
 */
export function classWorkSearchQueries(db: Db, p: SearchParams, now: Date) {
  const { condition, order, sortsEveryMatch } = classWorkSearchClauses(p, now)
  const page = p.page ?? 1
  return {
    page,
    sortsEveryMatch,
    count: db.select({ n: sql<number>`count(*)::int` }).from(classWorks).where(condition),
    ids: db
      .select({ id: classWorks.id })
      .from(classWorks)
      .where(condition)
      .orderBy(...order)
      .limit(SEARCH_PER_PAGE)
      .offset((page - 1) * SEARCH_PER_PAGE),
    pageWithTotal: db
      .select({ id: classWorks.id, total: sql<number>`count(*) over ()`.mapWith(Number) })
      .from(classWorks)
      .where(condition)
      .orderBy(...order)
      .limit(SEARCH_PER_PAGE)
      .offset((page - 1) * SEARCH_PER_PAGE),
  }
}

export async function searchClassWorks(db: Db, p: SearchParams, now: Date): Promise<ClassWorkSearchResult> {
  const q = classWorkSearchQueries(db, p, now)
  let ids: number[]
  let total: number
  if (q.sortsEveryMatch) {
    const rows = await q.pageWithTotal
    ids = rows.map((r) => r.id)
    // A page past the end has no row to carry the total.
    total = rows[0]?.total ?? (q.page > 1 ? Number((await q.count)[0]?.n ?? 0) : 0)
  } else {
    const [[totalRow], pageIds] = await Promise.all([q.count, q.ids])
    total = Number(totalRow?.n ?? 0)
    ids = pageIds.map((r) => r.id)
  }
  const rowOf = new Map(
    ids.length === 0
      ? []
      : (await selectClassRows(db).where(inArray(classWorks.id, ids))).map((r) => [r.id, r] as const),
  )
  const rows = ids.flatMap((id) => rowOf.get(id) ?? [])
  return {
    items: await toCards(db, rows, now),
    total,
    page: q.page,
    per_page: SEARCH_PER_PAGE,
    total_pages: Math.ceil(total / SEARCH_PER_PAGE),
  }
}

async function schedulesOf(db: Db, classWorkIds: number[]): Promise<Map<number, ScheduleRow[]>> {
  const map = new Map<number, ScheduleRow[]>()
  if (classWorkIds.length === 0) return map
  const rows = await db
    .select(scheduleColumns)
    .from(classWorkSchedules)
    .where(inArray(classWorkSchedules.classWorkId, classWorkIds))
    .orderBy(asc(classWorkSchedules.startedAt), asc(classWorkSchedules.id))
  for (const r of rows) {
    const list = map.get(r.classWorkId) ?? []
    list.push(r)
    map.set(r.classWorkId, list)
  }
  return map
}

/** A published class with its schedules and the spec §3 summary; unpublished classes do not exist publicly. */
export async function classWorkDetail(db: Db, id: number, now: Date): Promise<ClassWorkDetail> {
  const [row] = await selectClassRows(db)
    .where(and(eq(classWorks.id, id), eq(classWorks.isPublished, true)))
    .limit(1)
  if (!row) throw notFound('クラス')
  const [[card], schedules, org] = await Promise.all([
    toCards(db, [row], now),
    schedulesOf(db, [id]).then((m) => m.get(id) ?? []),
    row.organizationId
      ? db
          .select({ id: organizations.id, name: organizations.name })
          .from(organizations)
          .where(eq(organizations.id, row.organizationId))
          .then((r) => r[0] ?? null)
      : Promise.resolve(null),
  ])
  const shownFrom = now.getTime() - 30 * DAY
  return {
    ...card!,
    description: row.description,
    organization: org,
    schedules: schedules.filter((s) => s.endedAt.getTime() >= shownFrom).map(toPublicSchedule),
    summary: summaryJson(schedules, now),
    updated_at: iso(row.updatedAt),
  }
}

/** A teacher's published classes, newest first. */
export async function teacherClassWorks(db: Db, teacherId: number, now: Date) {
  const rows = await selectClassRows(db)
    .where(and(eq(classWorks.teacherId, teacherId), eq(classWorks.isPublished, true)))
    .orderBy(desc(classWorks.createdAt), desc(classWorks.id))
  return toCards(db, rows, now)
}

/** The caller's own classes (published, unpublished, or both), with figures for class management. */
export async function myClassWorks(
  db: Db,
  userId: number,
  isPublished: boolean | undefined,
  now: Date,
): Promise<MyClassWork[]> {
  const where = [eq(classWorks.teacherId, userId)]
  if (isPublished !== undefined) where.push(eq(classWorks.isPublished, isPublished))
  const rows = await selectClassRows(db)
    .where(and(...where))
    .orderBy(desc(classWorks.updatedAt), desc(classWorks.id))
  const [cards, schedules] = await Promise.all([
    toCards(db, rows, now),
    schedulesOf(
      db,
      rows.map((r) => r.id),
    ),
  ])
  return cards.map((card, i) => {
    const row = rows[i]!
    const list = schedules.get(row.id) ?? []
    return {
      ...card,
      is_published: row.isPublished,
      organization_id: row.organizationId,
      summary: summaryJson(list, now),
      schedule_count: list.length,
      upcoming_schedule_count: list.filter((s) => !s.isCanceled && s.startedAt.getTime() >= now.getTime())
        .length,
      updated_at: iso(row.updatedAt),
    }
  })
}
