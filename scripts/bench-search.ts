/**
 * Class search benchmark (issue #5):  npm run bench:search
 * Builds a scratch database with 100,000 classes and 300,000 schedules — PGlite in a temp dir, and PostgreSQL too
 * when BENCH_DATABASE_URL is set (a scratch database `manabi_bench_*` is created there and dropped after) — then
 * times the API's own search (searchClassWorks: count + page + cards) for a fixed set of queries, next to a plain
 * `search_text ILIKE '%term%'` query (count + first page) on the same data, and prints EXPLAIN of a 2-character term.
 * Options (env): BENCH_CLASSES (100000), BENCH_RUNS (20), BENCH_SKIP_PGLITE=1, BENCH_KEEP=1 (keep the PostgreSQL one),
 * BENCH_PGLITE_DIR (a PGlite folder to keep and reuse: loaded once, measured again on later runs).
 */
import { randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import postgres from 'postgres'
import {
  classWorkSearchQueries,
  type SearchParams,
  searchClassWorkIds,
  searchClassWorks,
} from '../app/api/services/class-works'
import { type Database, openDatabase } from '../app/db/client'
import { rowsOf } from '../app/db/rows'
import { recomputeSearchKeys } from '../app/db/search-keys'
import { seedMasters } from '../app/db/seed'
import { normalizeSearchText, searchTerms } from '../app/lib/search-normalize'

const CLASSES = Number(process.env.BENCH_CLASSES ?? 100_000)
const RUNS = Number(process.env.BENCH_RUNS ?? 20)
const DAY = 86_400_000

// ── synthetic Japanese content: title = prefix + subject + suffix; description mentions another subject ──
const subjects: [string, string][] = [
  ['陶芸', '陶芸'],
  ['将棋', '将棋・囲碁'],
  ['囲碁', '将棋・囲碁'],
  ['英語', '英語'],
  ['英会話', '英語'],
  ['フォニックス', '英語'],
  ['プログラミング', 'プログラミング'],
  ['Python', 'プログラミング'],
  ['Ｓｃｒａｔｃｈ', 'プログラミング'],
  ['ロボット', 'プログラミング'],
  ['マインクラフト', 'プログラミング'],
  ['算数', '算数・数学'],
  ['そろばん', '算数・数学'],
  ['図形パズル', '算数・数学'],
  ['理科実験', '理科・実験'],
  ['天体観測', '理科・実験'],
  ['昆虫', '理科・実験'],
  ['恐竜', '理科・実験'],
  ['ピアノ', '音楽'],
  ['ウクレレ', '音楽'],
  ['リトミック', '音楽'],
  ['絵画', 'アート・工作'],
  ['折り紙', 'アート・工作'],
  ['工作', 'アート・工作'],
  ['書道', '国語・作文'],
  ['作文', '国語・作文'],
  ['読書感想文', '国語・作文'],
  ['俳句', '国語・作文'],
  ['歴史', '社会'],
  ['地理', '社会'],
  ['お金', '社会'],
  ['ダンス', 'ダンス・体操'],
  ['ヒップホップ', 'ダンス・体操'],
  ['体操', 'ダンス・体操'],
  ['けん玉', 'ダンス・体操'],
  ['料理', 'アート・工作'],
  ['手芸', 'アート・工作'],
  ['写真', 'アート・工作'],
  ['中国語', '英語'],
  ['フランス語', '英語'],
]
const prefixes = [
  'はじめての',
  '親子で楽しむ',
  '小学生のための',
  '中学生向け',
  '週末の',
  'オンライン',
  '夏休み',
  'たのしい',
  '本格',
  'ゼロから学ぶ',
  '',
  '少人数',
]
const suffixes = [
  '入門',
  '教室',
  '講座',
  'ワークショップ',
  '体験会',
  '基礎クラス',
  '応用クラス',
  '検定対策',
  '自由研究',
  'ゼミ',
]
const openers = [
  'この講座では、身近な題材を使って手を動かしながら学びます。',
  'はじめての方でも安心して参加できるよう、先生が一人ひとりに声をかけます。',
  'オンラインで全国どこからでも参加できます。カメラはオフでも大丈夫です。',
  '毎回テーマを決めて、最後に作品や成果を発表します。',
  '経験豊富な講師が、基礎から丁寧に教えます。',
]
const middles = [
  'にも興味があるお子さまにおすすめです。',
  'が好きな友だちと一緒に参加するのも歓迎です。',
  'の経験がなくても問題ありません。',
  'とあわせて学ぶと、さらに理解が深まります。',
]
const closers = [
  '準備するものは筆記用具だけです。',
  '保護者の方の見学も自由です。',
  '終了後に質問の時間があります。',
  '教材は事前にお送りします。',
  '',
]

interface Query {
  label: string
  params: SearchParams
}

/** Secondary indexes (not primary keys or unique constraints) of the bulk-loaded tables, to rebuild after the load. */
async function dropIndexes(database: Database): Promise<string[]> {
  const defs = rowsOf<{ name: string; def: string }>(
    await database.db.execute(sql`
      select i.indexname as name, i.indexdef as def from pg_indexes i
      where i.schemaname = current_schema()
        and i.tablename in ('class_works', 'class_work_schedules', 'class_work_target_grades')
        and not exists (select 1 from pg_constraint c where c.conname = i.indexname)`),
  )
  for (const d of defs) await database.exec(`drop index "${d.name}"`)
  return defs.map((d) => d.def)
}

async function step<T>(label: string, fn: () => Promise<T>): Promise<T> {
  const t = performance.now()
  const result = await fn()
  console.log(`  load: ${label} ${((performance.now() - t) / 1000).toFixed(1)} s`)
  return result
}

async function load(database: Database, now: Date) {
  const { db } = database
  await db.transaction(async (tx) => {
    await seedMasters(tx)
  })
  const categories = (await db.execute<{ id: number; name: string }>(
    sql`select id, name from categories`,
  )) as never
  const catRows = rowsOf<{ id: number; name: string }>(categories)
  const catId = new Map(catRows.map((c) => [c.name, c.id]))
  // 200 teachers
  const nicknames = Array.from(
    { length: 200 },
    (_, i) => `${['さくら', 'ハルカ', 'Ken', 'ゆうき', 'ミナミ'][i % 5]}先生${i + 1}`,
  )
  await db.execute(sql`
    insert into users (issuer, sub, nickname, name, name_kana, role, is_teacher, agreed_to_terms_at)
    select 'https://bench.example/idp', 'bench-' || i, n, n, 'せんせい', 'teacher', true, now()
    from unnest(${pgArray(nicknames)}::text[]) with ordinality as t(n, i)`)
  const teachers = rowsOf<{ id: number; nickname: string }>(
    await db.execute(sql`select id, nickname from users where is_teacher order by id`),
  )
  const n = (xs: string[]) => xs.map(normalizeSearchText)
  // Bulk load without the secondary indexes, then build them in one pass each (as the migrations define them).
  const indexes = await dropIndexes(database)
  const subj = subjects.map((s) => s[0])
  const subjCat = subjects.map((s) => catId.get(s[1])!)
  const subjCatName = subjects.map((s) => normalizeSearchText(s[1]))
  const sa = (xs: string[]) => sql`${pgArray(xs)}::text[]`
  const ia = (xs: number[]) => sql`${pgArray(xs.map(String))}::int[]`
  // hashint4: a deterministic pseudo-random int per generated row and salt.
  await step('classes', () =>
    db.execute(sql`
    with g as (
      select i,
        1 + abs(hashint4(i * 7 + 1)) % ${subj.length} as s,
        1 + abs(hashint4(i * 7 + 2)) % ${subj.length} as s2,
        1 + abs(hashint4(i * 7 + 3)) % ${prefixes.length} as p,
        1 + abs(hashint4(i * 7 + 4)) % ${suffixes.length} as x,
        1 + abs(hashint4(i * 7 + 5)) % ${openers.length} as o,
        1 + abs(hashint4(i * 7 + 6)) % ${middles.length} as m,
        1 + abs(hashint4(i * 13 + 7)) % ${closers.length} as c,
        1 + abs(hashint4(i * 13 + 8)) % ${teachers.length} as t
      from generate_series(1, ${CLASSES}) as i
    )
    insert into class_works (teacher_id, title, description, category_id, class_style_id, price, capacity,
      duration_minutes, is_published, search_text, created_at, rating_count, rating_sum)
    select (${ia(teachers.map((t) => t.id))})[t],
      (${sa(prefixes)})[p] || (${sa(subj)})[s] || (${sa(suffixes)})[x] || '（' || i || '）',
      (${sa(openers)})[o] || (${sa(subj)})[s2] || (${sa(middles)})[m] || (${sa(closers)})[c],
      (${ia(subjCat)})[s],
      (select id from class_styles order by id offset abs(hashint4(i * 13 + 9)) % 3 limit 1),
      (abs(hashint4(i * 13 + 10)) % 40) * 100,
      5 + abs(hashint4(i * 13 + 11)) % 20,
      30 + 15 * (abs(hashint4(i * 13 + 12)) % 6),
      abs(hashint4(i * 13 + 13)) % 20 <> 0,
      (${sa(n(prefixes))})[p] || (${sa(n(subj))})[s] || (${sa(n(suffixes))})[x] || '(' || i || ') ' ||
        (${sa(n(openers))})[o] || (${sa(n(subj))})[s2] || (${sa(n(middles))})[m] || (${sa(n(closers))})[c] || ' ' ||
        (${sa(n(teachers.map((t) => t.nickname)))})[t] || ' ' || (${sa(subjCatName)})[s],
      ${now.toISOString()}::timestamptz - (abs(hashint4(i * 13 + 14)) % 365) * interval '1 day',
      -- Reviews (issue 16): about half the classes have 1–40, averaging ★3–5.
      case when abs(hashint4(i * 13 + 15)) % 2 = 0 then 1 + abs(hashint4(i * 13 + 16)) % 40 else 0 end,
      case when abs(hashint4(i * 13 + 15)) % 2 = 0
        then (1 + abs(hashint4(i * 13 + 16)) % 40) * (3 + abs(hashint4(i * 13 + 17)) % 3) else 0 end
    from g`),
  )
  // The search-key triggers would update a class per inserted row: off for the bulk load, then one recompute.
  await database.exec(
    'alter table class_work_target_grades disable trigger class_work_target_grades_sort_keys',
  )
  await step('target grades', () =>
    db.execute(sql`
    insert into class_work_target_grades (class_work_id, target_grade_id)
    select c.id, g.id from class_works c
    join target_grades g on (abs(hashint4(c.id * 31 + g.id)) % 4) = 0`),
  )
  await database.exec('alter table class_work_schedules disable trigger class_work_schedules_sort_keys')
  await step('schedules', () =>
    db.execute(sql`
    insert into class_work_schedules (class_work_id, started_at, ended_at, capacity, purchased_count, is_canceled)
    select c.id, st, st + c.duration_minutes * interval '1 minute', c.capacity,
      abs(hashint4(c.id * 3 + k + 100)) % (c.capacity + 1),
      abs(hashint4(c.id * 3 + k + 200)) % 20 = 0
    from class_works c cross join generate_series(1, 3) as k,
    lateral (select ${now.toISOString()}::timestamptz
      + ((abs(hashint4(c.id * 3 + k)) % 120) - 30) * interval '1 day'
      + (9 + abs(hashint4(c.id * 3 + k + 50)) % 11) * interval '1 hour' as st) as s`),
  )
  await step('indexes', async () => {
    for (const def of indexes) await database.exec(def)
  })
  await database.exec('alter table class_work_schedules enable trigger class_work_schedules_sort_keys')
  await database.exec(
    'alter table class_work_target_grades enable trigger class_work_target_grades_sort_keys',
  )
  await step('search keys', () => recomputeSearchKeys(db, now))
  await step('vacuum analyze', () => database.exec('VACUUM ANALYZE'))
  return { catId }
}

/** A PostgreSQL array literal, passed as one text parameter (drizzle would spread a JS array into a list). */
function pgArray(xs: string[]): string {
  return `{${xs.map((x) => `"${x.replace(/[\\"]/g, (c) => `\\${c}`)}"`).join(',')}}`
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!
}

async function time(fn: () => Promise<unknown>): Promise<{ p50: number; p95: number }> {
  for (let i = 0; i < 2; i++) await fn()
  const ms: number[] = []
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now()
    await fn()
    ms.push(performance.now() - t)
  }
  ms.sort((a, b) => a - b)
  return { p50: percentile(ms, 50), p95: percentile(ms, 95) }
}

async function ilike(database: Database, term: string) {
  const pattern = `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
  await database.db.execute(
    sql`select count(*)::int as n from class_works where is_published and search_text ilike ${pattern}`,
  )
  await database.db.execute(
    sql`select id, title from class_works where is_published and search_text ilike ${pattern} order by created_at desc, id desc limit 20`,
  )
}

async function bench(kind: string, database: Database) {
  const now = new Date()
  const t0 = performance.now()
  const loaded = rowsOf<{ n: number }>(
    await database.db.execute(sql`select count(*)::int as n from class_works`),
  )[0]!
  const catId =
    loaded.n >= CLASSES
      ? new Map(
          rowsOf<{ id: number; name: string }>(
            await database.db.execute(sql`select id, name from categories`),
          ).map((c) => [c.name, c.id]),
        )
      : (await load(database, now)).catId
  const counts = rowsOf<{ c: number; s: number }>(
    await database.db.execute(
      sql`select (select count(*)::int from class_works) as c, (select count(*)::int from class_work_schedules) as s`,
    ),
  )[0]!
  console.log(
    `\n## ${kind}: ${counts.c} classes, ${counts.s} schedules loaded in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  )
  const day = (offset: number) => new Date(now.getTime() + offset * DAY).toISOString().slice(0, 10)
  const art = catId.get('アート・工作')!
  const queries: Query[] = [
    { label: '2 chars: 陶芸', params: { q: '陶芸' } },
    { label: '3 chars: 英会話', params: { q: '英会話' } },
    { label: 'kana folded: ぷろぐらみんぐ', params: { q: 'ぷろぐらみんぐ' } },
    { label: 'long: はじめてのプログラミング教室', params: { q: 'はじめてのプログラミング教室' } },
    { label: 'two terms: 将棋 入門', params: { q: '将棋 入門' } },
    { label: '陶芸 + category', params: { q: '陶芸', category: catId.get('陶芸')! } },
    { label: 'no hit: 量子力学', params: { q: '量子力学' } },
    {
      label: 'no term + category, grade, price, dates',
      params: { category: art, grade: 3, price_max: 2000, from: day(0), to: day(30) },
    },
    ...(['new', 'start', 'price_asc', 'price_desc', 'popular', 'rating'] as const).map((sort) => ({
      label: `英語 sort=${sort}`,
      params: { q: '英語', sort },
    })),
    ...(['new', 'start', 'price_asc', 'price_desc', 'popular', 'rating'] as const).map((sort) => ({
      label: `no term + category sort=${sort}`,
      params: { category: art, sort },
    })),
    { label: '英語 page 10', params: { q: '英語', page: 10 } },
    { label: 'no term sort=rating', params: { sort: 'rating' } },
    { label: 'no term ★4以上 sort=rating', params: { rating_min: 4, sort: 'rating' } },
    { label: '英語 ★4.5以上', params: { q: '英語', rating_min: 4.5 } },
    { label: 'no term 土日の午前', params: { weekday: ['sat', 'sun'], time: ['morning'] } },
    {
      label: 'no term 水曜の夕方 sort=start',
      params: { weekday: ['wed'], time: ['evening'], sort: 'start' },
    },
    { label: '英語 土日', params: { q: '英語', weekday: ['sat', 'sun'] } },
    { label: 'category + 夕方', params: { category: art, time: ['evening'] } },
  ]
  const rows: string[][] = []
  for (const q of queries) {
    const result = await searchClassWorks(database.db, q.params, now)
    const ours = await time(() => searchClassWorks(database.db, q.params, now))
    const bare = await time(() => searchClassWorkIds(database.db, q.params, now))
    const terms = searchTerms(q.params.q)
    const base =
      terms.length === 1 && Object.keys(q.params).length === 1
        ? await time(() => ilike(database, terms[0]!))
        : null
    rows.push([
      q.label,
      result.total_capped ? `${result.total}+` : String(result.total),
      bare.p50.toFixed(1),
      bare.p95.toFixed(1),
      ours.p50.toFixed(1),
      ours.p95.toFixed(1),
      base ? base.p50.toFixed(1) : '–',
      base ? base.p95.toFixed(1) : '–',
    ])
  }
  const head = ['query', 'hits', 'SQL p50', 'SQL p95', 'API p50', 'API p95', 'ILIKE p50', 'ILIKE p95']
  console.log(
    `\nms over ${RUNS} runs. SQL: the search's capped count + page of ids (searchClassWorkIds); API: searchClassWorks ` +
      `(the same + the cards' look-ups); ILIKE: count + page by search_text ILIKE '%term%'. Load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
  )
  console.log(`\n| ${head.join(' | ')} |\n|${head.map(() => '---').join('|')}|`)
  for (const r of rows) console.log(`| ${r.join(' | ')} |`)

  const explained = rowsOf<Record<string, string>>(
    await database.db.execute(sql`explain ${classWorkSearchQueries(database.db, { q: '陶芸' }).count}`),
  )
  console.log('\nEXPLAIN (capped count of q=陶芸):')
  for (const r of explained) console.log(`  ${Object.values(r)[0]}`)
  const explainedPage = rowsOf<Record<string, string>>(
    await database.db.execute(
      sql`explain ${classWorkSearchQueries(database.db, { q: '英語' }).walk(0, 20, 0)}`,
    ),
  )
  console.log('EXPLAIN (page of q=英語 past the count cap: a walk of the title tier):')
  for (const r of explainedPage) console.log(`  ${Object.values(r)[0]}`)
}

if (!process.env.BENCH_SKIP_PGLITE) {
  const kept = process.env.BENCH_PGLITE_DIR
  const dir = kept ?? mkdtempSync(path.join(tmpdir(), 'manabi-bench-'))
  try {
    const database = await openDatabase({ dataDir: dir })
    try {
      await bench('PGlite', database)
    } finally {
      await database.close()
    }
  } finally {
    if (!kept) rmSync(dir, { recursive: true, force: true })
  }
}

const url = process.env.BENCH_DATABASE_URL
if (url) {
  const name = `manabi_bench_${randomUUID().slice(0, 8)}`
  const admin = postgres(url, { max: 1, onnotice: () => {} })
  await admin.unsafe(`create database "${name}" encoding 'UTF8' template template0`)
  try {
    const u = new URL(url)
    u.pathname = `/${name}`
    const database = await openDatabase({ databaseUrl: u.toString(), statementTimeoutMs: 0 })
    try {
      await bench('PostgreSQL', database)
    } finally {
      await database.close()
    }
  } finally {
    if (process.env.BENCH_KEEP) console.log(`kept database ${name} (BENCH_KEEP)`)
    else await admin.unsafe(`drop database if exists "${name}" with (force)`)
    await admin.end()
  }
}
