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

/** The count of a search stops here; more matches show as "1,000件以上" (docs/decisions/0011-search-sort-keys.md). */
export const SEARCH_COUNT_CAP = 1000

/**
 * The WHERE, relevance tiers and ORDER BY of a class search, shared by the API and the benchmark
 * (scripts/bench-search.ts).
 *
 * Keyword: the query is normalized like search_text (app/lib/search-normalize.ts) and split on spaces; every term
 * must match. The GIN expression index on class_search_bigrams(search_text) (unigrams + bigrams, migrations
 * 0002/0003) finds the candidates of a rare term (`@@` all grams of all terms, so 1- and 2-character terms such as
 * 陶芸 use the index too); `strpos(search_text, term)` checks each term exactly (bigrams do not prove adjacency).
 * `walkCondition` leaves the `@@` out: for a term with more matches than the count cap, the page walks a sort index
 * and tests rows with strpos alone — class_search_bigrams costs ~0.15 ms a row when evaluated as a filter.
 *
 * Relevance: the number of terms found in the title (search_title), so title matches rank above description /
 * teacher / category matches. Each relevance level is a tier, best first; within a tier the chosen sort (default
 * `new`) applies, and every sort has an index that ends in the id tie-breaker (migration 0004), so a page of a broad
 * search walks that index and stops after 20 rows instead of sorting every match.
 */
export function classWorkSearchClauses(p: SearchParams): {
  condition: SQL
  walkCondition: SQL
  tiers: (SQL | undefined)[]
  order: SQL[]
} {
  const where: SQL[] = [eq(classWorks.isPublished, true)]
  const terms = searchTerms(p.q)
  for (const term of terms) where.push(sql`strpos(${classWorks.searchText}, ${term}) > 0`)
  if (p.category !== undefined) where.push(eq(classWorks.categoryId, p.category))
  if (p.style !== undefined) where.push(eq(classWorks.classStyleId, p.style))
  if (p.price_min !== undefined) where.push(gte(classWorks.price, p.price_min))
  if (p.price_max !== undefined) where.push(lte(classWorks.price, p.price_max))
  // target_grade_ids mirrors class_work_target_grades (trigger, migration 0004): no join per matching row.
  if (p.grade !== undefined) where.push(sql`${classWorks.targetGradeIds} @> array[${p.grade}::int]`)
  if (p.from !== undefined || p.to !== undefined) {
    const range: SQL[] = [eq(classWorkSchedules.isCanceled, false)]
    if (p.from) range.push(gte(classWorkSchedules.startedAt, tokyoDayStart(p.from)))
    if (p.to) range.push(lt(classWorkSchedules.startedAt, new Date(tokyoDayStart(p.to).getTime() + DAY)))
    where.push(
      sql`exists (select 1 from ${classWorkSchedules} where ${classWorkSchedules.classWorkId} = ${classWorks.id} and ${and(...range)})`,
    )
  }

  const inTitle = (term: string) => sql`strpos(${classWorks.searchTitle}, ${term}) > 0`
  let tiers: (SQL | undefined)[] = [undefined]
  if (terms.length === 1) tiers = [inTitle(terms[0]!), sql`not (${inTitle(terms[0]!)})`]
  else if (terms.length > 1) {
    const found = sql.join(
      terms.map((term) => sql`(${inTitle(term)})::int`),
      sql` + `,
    )
    tiers = terms.map((_, i) => sql`(${found}) = ${terms.length - i}`).concat(sql`(${found}) = 0`)
  }

  const sorts: Record<SearchSort, SQL[]> = {
    new: [desc(classWorks.createdAt), desc(classWorks.id)],
    start: [sql`${classWorks.nextStartAt} asc nulls last`, desc(classWorks.id)],
    price_asc: [asc(classWorks.price), desc(classWorks.id)],
    price_desc: [desc(classWorks.price), desc(classWorks.id)],
    popular: [desc(classWorks.seatsSold), desc(classWorks.id)],
  }
  const grams = gramsTsquery(terms)
  const walkCondition = and(...where)!
  const condition = grams
    ? and(sql`class_search_bigrams(${classWorks.searchText}) @@ ${grams}::tsquery`, walkCondition)!
    : walkCondition
  return { condition, walkCondition, tiers, order: sorts[p.sort ?? 'new'] }
}

/**
 * The queries of a class search, unexecuted (the benchmark and a test EXPLAIN them): `count` counts the matches up
 * to SEARCH_COUNT_CAP + 1; `ids(tier, limit, offset, broad)` selects the ids of one relevance tier in the chosen
 * order; `tierCount(tier, cap, broad)` counts a tier up to `cap` (to skip whole tiers when paging past them).
 * `broad`: the count hit the cap, so the walk condition is used (see classWorkSearchClauses).
 */
export function classWorkSearchQueries(db: Db, p: SearchParams) {
  const { condition, walkCondition, tiers, order } = classWorkSearchClauses(p)
  const capped = (where: SQL | undefined, cap: number) =>
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(db.select({ one: sql`1` }).from(classWorks).where(where).limit(cap).as('matches'))
  // Not broad (≤ 1,000 matches): the matches are fetched on their own (OFFSET 0 keeps that sub-query apart, so the
  // planner reads them from the GIN index) and only they are sorted; a walk along a sort index would evaluate the
  // costly `@@` on every row it passes.
  const fewMatches = sql`${classWorks.id} in (select ${classWorks.id} from ${classWorks} where ${condition} offset 0)`
  const inTier = (tier: number, broad: boolean) => and(broad ? walkCondition : fewMatches, tiers[tier])
  return {
    page: p.page ?? 1,
    tiers: tiers.length,
    refreshesNextStart: p.sort === 'start',
    count: capped(condition, SEARCH_COUNT_CAP + 1),
    tierCount: (tier: number, cap: number, broad = false) => capped(inTier(tier, broad), cap),
    ids: (tier: number, limit: number, offset: number, broad = false) =>
      db
        .select({ id: classWorks.id })
        .from(classWorks)
        .where(inTier(tier, broad))
        .orderBy(...order)
        .limit(limit)
        .offset(offset),
  }
}

/**
 * Brings next_start_at up to date where the start it holds has passed (a schedule started since the last write):
 * a range scan of class_works_next_start_idx that finds nothing most of the time.
 */
export async function refreshNextStarts(db: Db, now: Date): Promise<void> {
  await db.execute(
    sql`select class_works_refresh_next_start(id, ${now.toISOString()}::timestamptz) from ${classWorks} where ${classWorks.nextStartAt} < ${now.toISOString()}::timestamptz`,
  )
}

/** Recomputes every class's search keys (triggers keep them otherwise): for bulk loads made with them disabled. */
export async function recomputeSearchSortKeys(db: Db, now: Date): Promise<void> {
  await db.execute(sql`
    update ${classWorks} c set seats_sold = coalesce(k.seats, 0), next_start_at = k.next,
      target_grade_ids = coalesce((select array_agg(g.target_grade_id order by g.target_grade_id)
        from ${classWorkTargetGrades} g where g.class_work_id = c.id), '{}')
    from ${classWorks} c2 left join (
      select class_work_id,
        sum(purchased_count) filter (where not is_canceled) as seats,
        min(started_at) filter (where not is_canceled and started_at >= ${now.toISOString()}::timestamptz) as next
      from ${classWorkSchedules} group by class_work_id
    ) k on k.class_work_id = c2.id
    where c2.id = c.id`)
}

/** The ids of one page of a search and the (capped) total, without the cards. */
export async function searchClassWorkIds(
  db: Db,
  p: SearchParams,
  now: Date,
): Promise<{ ids: number[]; total: number; capped: boolean; page: number }> {
  const q = classWorkSearchQueries(db, p)
  if (q.refreshesNextStart) await refreshNextStarts(db, now)
  const [counted] = await q.count
  const n = Number(counted?.n ?? 0)
  const broad = n > SEARCH_COUNT_CAP
  const ids: number[] = []
  // Walk the tiers best first: skip whole tiers that end before the page, then fill the page.
  let skip = (q.page - 1) * SEARCH_PER_PAGE
  if (n > 0 && (skip < n || broad)) {
    for (let tier = 0; tier < q.tiers && ids.length < SEARCH_PER_PAGE; tier++) {
      const rows = await q.ids(tier, SEARCH_PER_PAGE - ids.length, skip, broad)
      ids.push(...rows.map((r) => r.id))
      if (rows.length > 0) skip = 0
      else if (skip > 0 && tier < q.tiers - 1) {
        const [inTier] = await q.tierCount(tier, skip, broad)
        skip -= Number(inTier?.n ?? 0)
      }
    }
  }
  return { ids, total: Math.min(n, SEARCH_COUNT_CAP), capped: broad, page: q.page }
}

export async function searchClassWorks(db: Db, p: SearchParams, now: Date): Promise<ClassWorkSearchResult> {
  const { ids, total, capped, page } = await searchClassWorkIds(db, p, now)
  const rowOf = new Map(
    ids.length === 0
      ? []
      : (await selectClassRows(db).where(inArray(classWorks.id, ids))).map((r) => [r.id, r] as const),
  )
  const rows = ids.flatMap((id) => rowOf.get(id) ?? [])
  return {
    items: await toCards(db, rows, now),
    total,
    total_capped: capped,
    page,
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
