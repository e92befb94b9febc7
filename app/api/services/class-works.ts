import { and, asc, desc, eq, gte, inArray, type Placeholder, type SQL, sql } from 'drizzle-orm'
import { PgDialect } from 'drizzle-orm/pg-core'
import { LRUCache } from 'lru-cache'
import type {
  ClassWorkDetail,
  ClassWorkSearchResult,
  CloseToStart,
  MyClassWork,
  SearchSort,
} from '../../contract/v1/class-works'
import { TEACHER_CLASSES_PER_PAGE } from '../../contract/v1/teachers'
import type { Db } from '../../db/client'
import { PLANNED_PER_RUN } from '../../db/pglite-statements'
import { rowsOf } from '../../db/rows'
import { classWorkSchedules, classWorks, organizations } from '../../db/schema'
import { retryOnConflict } from '../../db/transaction'
import { gramsTsquery } from '../../lib/search-bigrams'
import { searchTerms } from '../../lib/search-normalize'
import type { CardCache } from '../card-cache'
import { gone, notFound } from '../errors'
import {
  cardsByIds,
  iso,
  type ScheduleRow,
  scheduleColumns,
  selectCardRows,
  selectClassRows,
  summaryJson,
  toCards,
  toPublicSchedule,
} from './class-cards'
import { courseLessonsOf } from './lessons'
import { organizationShownPublicly } from './organizations'

export const SEARCH_PER_PAGE = 20
const DAY = 86_400_000

/** Newest published classes. */
export async function newArrivals(db: Db, now: Date, limit = 12) {
  const rows = await selectCardRows(db)
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
  const cards = await toCards(db, await selectCardRows(db).where(inArray(classWorks.id, ids)), now)
  const cardOf = new Map(cards.map((c) => [c.id, c]))
  const courseIds = schedules.filter((s) => cardOf.get(s.classWorkId)!.lesson_count > 1).map((s) => s.id)
  const lessons = await courseLessonsOf(db, courseIds)
  return schedules.map((s) => ({
    schedule: toPublicSchedule(s, lessons),
    class_work: cardOf.get(s.classWorkId)!,
  }))
}

/**
 * Published classes ordered by their next upcoming schedule (one row per class): the next_start_at index (kept by a
 * trigger, refreshed where a start has passed — see refreshNextStarts), not an aggregate over every schedule.
 */
export async function closeToStartsByClass(db: Db, now: Date, limit = 12) {
  await refreshNextStarts(db, now)
  const rows = await selectCardRows(db)
    .where(and(eq(classWorks.isPublished, true), gte(classWorks.nextStartAt, now)))
    .orderBy(asc(classWorks.nextStartAt), desc(classWorks.id))
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
  rating_min?: number
  weekday?: readonly ('mon' | 'tue' | 'wed' | 'thu' | 'fri' | 'sat' | 'sun')[]
  time?: readonly ('morning' | 'afternoon' | 'evening')[]
  sort?: SearchSort
  page?: number
  /** The moment "upcoming" is measured from (set by searchClassWorkIds). */
  now?: Date
}

/** Relevance tiers below "every term in the title" (what eight terms had). */
const MAX_TIERS = 8

const WEEKDAY_INDEX = { mon: 0, tue: 1, wed: 2, thu: 3, fri: 4, sat: 5, sun: 6 } as const
const TIME_INDEX = { morning: 0, afternoon: 1, evening: 2 } as const

/** The schedule slots (class_work_schedules.slot) a weekday/time search asks for; undefined when it asks none. */
export function searchSlots(p: Pick<SearchParams, 'weekday' | 'time'>): number[] | undefined {
  if (!p.weekday?.length && !p.time?.length) return undefined
  const days = p.weekday?.length ? p.weekday.map((d) => WEEKDAY_INDEX[d]) : [0, 1, 2, 3, 4, 5, 6]
  const parts = p.time?.length ? p.time.map((t) => TIME_INDEX[t]) : [0, 1, 2]
  return [...new Set(days.flatMap((d) => parts.map((t) => d * 3 + t)))].sort((a, b) => a - b)
}

/** Midnight at the start of a Tokyo calendar day (YYYY-MM-DD). */
function tokyoDayStart(day: string): Date {
  return new Date(`${day}T00:00:00+09:00`)
}

/** The count of a search stops here; more matches show as "1,000件以上" (docs/decisions/0011-search-sort-keys.md). */
export const SEARCH_COUNT_CAP = 1000

/** The chosen sort; every one has an index that ends in the id tie-breaker (migration 0004). */
function sortOrder(sort: SearchSort | undefined, c: typeof classWorks): SQL[] {
  switch (sort ?? 'new') {
    case 'start':
      return [sql`${c.nextStartAt} asc nulls last`, desc(c.id)]
    case 'price_asc':
      return [asc(c.price), desc(c.id)]
    case 'price_desc':
      return [desc(c.price), desc(c.id)]
    case 'popular':
      return [desc(c.seatsSold), desc(c.id)]
    case 'rating':
      return [desc(c.ratingScore), desc(c.id)]
    default:
      return [desc(c.createdAt), desc(c.id)]
  }
}

/**
 * A search's values by the name of the placeholder each one fills. Which names are present decides the text of the
 * search's statements (with the sort): classWorkSearchClauses reads nothing else, so a statement built once for a
 * set of names (searchStatementKey) serves every search with those names (countedPageRows, docs/decisions/0051).
 * Terms are t0, t1, …; slots s0, s1, …; timestamps are ISO strings.
 */
export type SearchValues = Record<string, string | number>

export function searchValues(p: SearchParams): SearchValues {
  const v: SearchValues = {}
  const terms = searchTerms(p.q)
  terms.forEach((term, i) => {
    v[`t${i}`] = term
  })
  const grams = gramsTsquery(terms)
  if (grams) v.grams = grams
  if (p.category !== undefined) v.category = p.category
  if (p.style !== undefined) v.style = p.style
  if (p.price_min !== undefined) v.price_min = p.price_min
  if (p.price_max !== undefined) v.price_max = p.price_max
  if (p.grade !== undefined) v.grade = p.grade
  // The stars asked for in halves: see rating_halves in classWorkSearchClauses.
  if (p.rating_min !== undefined) v.rating_halves = Math.round(p.rating_min * 2)
  searchSlots(p)?.forEach((slot, i) => {
    v[`s${i}`] = slot
  })
  if (p.from !== undefined || p.to !== undefined) {
    // A flag, not a placeholder: the search has the lesson-date condition (with either bound, or only not canceled).
    v.dates = 1
    // A lesson (or a course's run) that can still be booked: not one that started earlier today or in the past
    // (0024), like the weekday and time filter.
    const fromDay = p.from ? tokyoDayStart(p.from) : undefined
    const lower = p.now && (!fromDay || fromDay < p.now) ? p.now : fromDay
    if (lower) v.starts_from = lower.toISOString()
    if (p.to) v.starts_before = new Date(tokyoDayStart(p.to).getTime() + DAY).toISOString()
  }
  return v
}

/** The names of a search's values and its sort: equal keys, equal statement texts. */
export function searchStatementKey(v: SearchValues, sort: SearchSort | undefined): string {
  return `${sort ?? 'new'}|${Object.keys(v).join(',')}`
}

/** Each value as itself (a statement run once), or as its placeholder (a statement kept for its key). */
type Bind = (name: string) => unknown
const named = (prefix: string, v: SearchValues) => {
  const names: string[] = []
  while (`${prefix}${names.length}` in v) names.push(`${prefix}${names.length}`)
  return names
}

/**
 * The WHERE, relevance and relevance tiers of a class search (classWorkSearchQueries builds the queries), from the
 * names in its values alone (searchValues); `bind` gives each value's SQL.
 *
 * Keyword: the query is normalized like search_text (app/lib/search-normalize.ts) and split on spaces; every term
 * must match. The GIN expression index on class_search_bigrams(search_text) (unigrams + bigrams, migrations
 * 0002/0003) finds the candidates (`@@` all grams of all terms, so 1- and 2-character terms such as 陶芸 use the
 * index too); `strpos(search_text, term)` checks each term exactly (bigrams do not prove adjacency).
 * `walkCondition` leaves the `@@` out, for pages that walk a sort index: evaluated per row, class_search_bigrams
 * costs ~0.15 ms, strpos next to nothing.
 *
 * Relevance: the number of terms found in the title (search_title), so title matches rank above description /
 * teacher / category matches; the chosen sort (default `new`) orders within the same relevance. `tiers` are the
 * relevance levels as conditions, best first, for the walk. The first tier (every term in the title) also carries
 * the `@@` of the title's own GIN index, so the planner knows when title matches are rare and reads them from the
 * index instead of walking the whole sort index to find a few.
 */
function classWorkSearchClauses(
  v: SearchValues,
  bind: Bind,
): {
  condition: SQL
  walkCondition: SQL
  relevance: SQL | undefined
  tiers: (SQL | undefined)[]
} {
  const where: SQL[] = [eq(classWorks.isPublished, true)]
  const terms = named('t', v).map(bind)
  for (const term of terms) where.push(sql`strpos(${classWorks.searchText}, ${term}) > 0`)
  if ('category' in v) where.push(sql`${classWorks.categoryId} = ${bind('category')}`)
  if ('style' in v) where.push(sql`${classWorks.classStyleId} = ${bind('style')}`)
  if ('price_min' in v) where.push(sql`${classWorks.price} >= ${bind('price_min')}`)
  if ('price_max' in v) where.push(sql`${classWorks.price} <= ${bind('price_max')}`)
  // target_grade_ids mirrors class_work_target_grades (trigger, migration 0004): no join per matching row.
  if ('grade' in v) where.push(sql`${classWorks.targetGradeIds} @> array[${bind('grade')}::int]`)
  // The average the cards show (not the Bayesian score) against the stars asked for: rating_halves is that one-decimal
  // figure in half stars rounded down (an indexed generated column, migration 0025), and rating_min comes in halves,
  // so a card showing ★4.0 is kept by ★4以上 and one showing ★4.4 is not by ★4.5以上. Unrated classes (null) drop out.
  if ('rating_halves' in v) where.push(sql`${classWorks.ratingHalves} >= ${bind('rating_halves')}`)
  const slotNames = named('s', v)
  const slots =
    slotNames.length > 0
      ? sql`array[${sql.join(
          slotNames.map((name) => sql`${bind(name)}`),
          sql`, `,
        )}]::smallint[]`
      : undefined
  if (slots) {
    // An upcoming, live lesson in one of the slots: the class's own slot list (kept with next_start_at, refreshed
    // before such a search). Without a keyword its GIN index finds the classes; with one, the keyword's index finds
    // fewer candidates and the list is checked per row — written so that the planner cannot AND the two indexes,
    // which reads tens of thousands of slot entries to drop most of them (measured: 10 ms → 6 ms at 100k classes).
    const overlaps = sql`${classWorks.upcomingSlots} && ${slots}`
    where.push(terms.length > 0 ? sql`(${overlaps}) is true` : overlaps)
  }
  if ('dates' in v) {
    const range: SQL[] = [eq(classWorkSchedules.isCanceled, false)]
    if ('starts_from' in v)
      range.push(sql`${classWorkSchedules.startedAt} >= ${bind('starts_from')}::timestamptz`)
    if ('starts_before' in v)
      range.push(sql`${classWorkSchedules.startedAt} < ${bind('starts_before')}::timestamptz`)
    // With a weekday or time asked too, the same lesson must meet both: a Saturday-morning lesson next month and a
    // Tuesday one this week do not make "Saturday mornings this week".
    if (slots) range.push(sql`${classWorkSchedules.slot} = any(${slots})`)
    where.push(
      sql`exists (select 1 from ${classWorkSchedules} where ${classWorkSchedules.classWorkId} = ${classWorks.id} and ${and(...range)})`,
    )
  }
  const walkCondition = and(...where)!
  if (!('grams' in v))
    return { condition: walkCondition, walkCondition, relevance: undefined, tiers: [undefined] }
  const grams = bind('grams')

  const inTitle = terms.map((term) => sql`strpos(${classWorks.searchTitle}, ${term}) > 0`)
  const found = sql.join(
    inTitle.map((c) => sql`(${c})::int`),
    sql` + `,
  )
  const allInTitle = and(
    sql`class_search_bigrams(${classWorks.searchTitle}) @@ ${grams}::tsquery`,
    ...inTitle,
  )
  // Every term in the title, then one tier per number of terms in it (n-1 … 0). A page walks the index once per
  // tier, so past MAX_TIERS the fewest-in-title share the last one (a query may have up to 50 terms).
  const floor = Math.max(0, terms.length - MAX_TIERS)
  const between: SQL[] = []
  for (let k = terms.length - 1; k > floor; k--) between.push(sql`(${found}) = ${k}`)
  const tiers: SQL[] =
    terms.length === 1
      ? [allInTitle!, sql`not (${inTitle[0]})`]
      : [allInTitle!, ...between, floor === 0 ? sql`(${found}) = 0` : sql`(${found}) <= ${floor}`]
  return {
    condition: and(sql`class_search_bigrams(${classWorks.searchText}) @@ ${grams}::tsquery`, walkCondition)!,
    walkCondition,
    relevance: sql`(${found})`,
    tiers,
  }
}

const capped = (db: Db, where: SQL | undefined, cap: number) =>
  db
    .select({ n: sql<number>`count(*)::int` })
    .from(db.select({ one: sql`1` }).from(classWorks).where(where).limit(cap).as('matches'))

/**
 * `count` and, while it is within the cap, one page of the matches sorted by relevance and the chosen sort, in one
 * statement (each statement costs a round trip, and on PGlite its own parse and plan): rows of (n, id, ord). The cap
 * is a one-time filter on the lateral page, so a larger set of matches is never sorted; with no id on the page, one
 * row carries the count alone.
 */
function countedPageStatement(
  db: Db,
  { condition, relevance }: ReturnType<typeof classWorkSearchClauses>,
  sort: SearchSort | undefined,
  offset: number | Placeholder,
): SQL {
  const ranking = [...(relevance ? [sql`${relevance} desc`] : []), ...sortOrder(sort, classWorks)]
  return sql`with cnt(n) as (${capped(db, condition, SEARCH_COUNT_CAP + 1)})
      select cnt.n, r.id, r.ord from cnt left join lateral (${db
        .select({
          id: classWorks.id,
          ord: sql`row_number() over (order by ${sql.join(ranking, sql`, `)})`.as('ord'),
        })
        .from(classWorks)
        .where(and(condition, sql`cnt.n <= ${SEARCH_COUNT_CAP}`))
        .orderBy(...ranking)
        .limit(SEARCH_PER_PAGE)
        .offset(offset)}) r on true
      order by r.ord`
}

/**
 * The queries of a class search with its values written in, unexecuted (the benchmark and a test EXPLAIN them):
 * - `count`: the matches counted up to SEARCH_COUNT_CAP + 1 (from the GIN index, or from the category index alone);
 * - `countedPage(offset)`: the count and, with at most SEARCH_COUNT_CAP matches, one page of them sorted by
 *   relevance and the chosen sort (countedPageStatement; a search runs it as countedPageRows does);
 * - `walk(tier, limit, offset)`: with more, one relevance tier in the chosen order, walking that sort's index and
 *   stopping once the page is full; `tierCount(tier, cap)` counts a tier up to `cap`, to skip whole tiers when
 *   paging past them.
 */
export function classWorkSearchQueries(db: Db, p: SearchParams) {
  const v = searchValues(p)
  const clauses = classWorkSearchClauses(v, (name) => v[name])
  const { condition, walkCondition, tiers } = clauses
  const inTier = (tier: number) => and(walkCondition, tiers[tier])
  return {
    tiers: tiers.length,
    count: capped(db, condition, SEARCH_COUNT_CAP + 1),
    countedPage: (offset: number) => countedPageStatement(db, clauses, p.sort, offset),
    tierCount: (tier: number, cap: number) => capped(db, inTier(tier), cap),
    // Planned for its values on every run: how many classes a tier holds decides between walking the sort's index
    // and sorting the tier, and a generic plan cannot know (PGlite kept one 3× slower at 100k classes, 0026).
    walk: (tier: number, limit: number, offset: number) =>
      sql`${sql.raw(PLANNED_PER_RUN)} ${db
        .select({ id: classWorks.id })
        .from(classWorks)
        .where(inTier(tier))
        .orderBy(...sortOrder(p.sort, classWorks))
        .limit(limit)
        .offset(offset)}`,
  }
}

/** countedPage with a placeholder for each of the values and for the offset: the same text for every search of a key. */
export function countedPageTemplate(db: Db, v: SearchValues, sort: SearchSort | undefined): SQL {
  return countedPageStatement(
    db,
    classWorkSearchClauses(v, (name) => sql.placeholder(name)),
    sort,
    sql.placeholder('offset'),
  )
}

const dialect = new PgDialect()

/** The counted-page statements of a database by searchStatementKey; a key is at most 50 terms and 21 slots long. */
const countedPagesOf = new WeakMap<Db, LRUCache<string, ReturnType<Db['_']['session']['prepareQuery']>>>()

/**
 * countedPage's rows for a search: its statement is built once per key (names and sort) with placeholders, and each
 * search only fills them in. Building it with drizzle took ~0.3 ms of a distinct search's ~8 ms (docs/decisions/0051).
 */
export async function countedPageRows(db: Db, p: SearchParams, offset: number) {
  const v = searchValues(p)
  const key = searchStatementKey(v, p.sort)
  let kept = countedPagesOf.get(db)
  if (!kept) {
    kept = new LRUCache({ max: 200 })
    countedPagesOf.set(db, kept)
  }
  let prepared = kept.get(key)
  if (!prepared) {
    prepared = db._.session.prepareQuery(
      dialect.sqlToQuery(countedPageTemplate(db, v, p.sort)),
      undefined,
      undefined,
      false,
    )
    kept.set(key, prepared)
  }
  return rowsOf<{ n: number; id: number | null }>(await prepared.execute({ ...v, offset }))
}

/**
 * Brings next_start_at up to date where the start it holds has passed (a schedule started since the last write):
 * a range scan of class_works_next_start_idx that finds nothing most of the time.
 */
export async function refreshNextStarts(db: Db, now: Date): Promise<void> {
  const at = now.toISOString()
  // Stale rows are locked in id order before they are written (docs/decisions/0015: several class rows are always
  // locked in ascending id), and a conflict is retried rather than failing the page that asked.
  await retryOnConflict(() =>
    db.execute(
      sql`select class_works_refresh_next_start(s.id, ${at}::timestamptz) from (select id from ${classWorks} where ${classWorks.nextStartAt} < ${at}::timestamptz order by id for no key update) s`,
    ),
  )
}

/** The ids of one page of a search and the (capped) total, without the cards. */
export async function searchClassWorkIds(
  db: Db,
  p: SearchParams,
  now: Date,
): Promise<{ ids: number[]; total: number; capped: boolean; page: number }> {
  const page = p.page ?? 1
  // next_start_at and upcoming_slots go stale together when a lesson starts: refreshed before they are read.
  if (p.sort === 'start' || searchSlots(p) !== undefined) await refreshNextStarts(db, now)
  const offset = (page - 1) * SEARCH_PER_PAGE
  const rows = await countedPageRows(db, { ...p, now }, offset)
  const n = Number(rows[0]?.n ?? 0)
  if (n <= SEARCH_COUNT_CAP) {
    const ids = rows.flatMap((r) => (r.id === null ? [] : [Number(r.id)]))
    return { ids, total: n, capped: false, page }
  }

  // More than the cap: walk the tiers best first, skipping whole tiers that end before the page.
  const q = classWorkSearchQueries(db, { ...p, now })
  const ids: number[] = []
  let skip = offset
  for (let tier = 0; tier < q.tiers && ids.length < SEARCH_PER_PAGE; tier++) {
    const rows = rowsOf<{ id: number }>(await db.execute(q.walk(tier, SEARCH_PER_PAGE - ids.length, skip)))
    ids.push(...rows.map((r) => Number(r.id)))
    if (rows.length > 0) skip = 0
    else if (skip > 0 && tier < q.tiers - 1) {
      const [inTier] = await q.tierCount(tier, skip)
      skip -= Number(inTier?.n ?? 0)
    }
  }
  return { ids, total: SEARCH_COUNT_CAP, capped: true, page }
}

/** One page of a class search; its cards through `cardCache` when given (app/api/card-cache.ts). */
export async function searchClassWorks(
  db: Db,
  p: SearchParams,
  now: Date,
  cardCache?: CardCache,
): Promise<ClassWorkSearchResult> {
  const { ids, total, capped, page } = await searchClassWorkIds(db, p, now)
  const load = (some: number[]) => cardsByIds(db, some, now)
  return {
    items: await (cardCache ? cardCache.cards(db, ids, now, load) : load(ids)),
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

/**
 * A published class with its schedules and the spec §3 summary; unpublished classes do not exist publicly (404),
 * except one an operator took down (hidden after a report, or published when its teacher was suspended): 410. One
 * statement tells the three apart, so an address that answers 404 costs one read.
 */
export async function classWorkDetail(db: Db, id: number, now: Date): Promise<ClassWorkDetail> {
  const [row] = await selectClassRows(db).where(eq(classWorks.id, id)).limit(1)
  if (!row?.isPublished) {
    if (row?.hiddenAt) throw gone('このクラスは公開を終了しました')
    throw notFound('クラス')
  }
  const [[card], schedules, org] = await Promise.all([
    toCards(db, [row], now),
    schedulesOf(db, [id]).then((m) => m.get(id) ?? []),
    row.organizationId
      ? db
          .select({ id: organizations.id, name: organizations.name })
          .from(organizations)
          .where(and(eq(organizations.id, row.organizationId), organizationShownPublicly))
          .then((r) => r[0] ?? null)
      : Promise.resolve(null),
  ])
  const shownFrom = now.getTime() - 30 * DAY
  const shown = schedules.filter((s) => s.endedAt.getTime() >= shownFrom)
  const lessons =
    row.lessonCount > 1
      ? await courseLessonsOf(
          db,
          shown.map((s) => s.id),
        )
      : undefined
  return {
    ...card!,
    description: row.description,
    organization: org,
    schedules: shown.map((s) => toPublicSchedule(s, lessons)),
    summary: summaryJson(schedules, now),
    updated_at: iso(row.updatedAt),
  }
}

/** One page of a teacher's published classes, newest first (TEACHER_CLASSES_PER_PAGE). */
export async function teacherClassWorks(db: Db, teacherId: number, now: Date, page = 1) {
  // One page, walked from class_works_teacher_published_idx: a teacher with thousands of classes costs the same.
  const rows = await selectCardRows(db)
    .where(and(eq(classWorks.teacherId, teacherId), eq(classWorks.isPublished, true)))
    .orderBy(desc(classWorks.createdAt), desc(classWorks.id))
    .limit(TEACHER_CLASSES_PER_PAGE)
    .offset((page - 1) * TEACHER_CLASSES_PER_PAGE)
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
