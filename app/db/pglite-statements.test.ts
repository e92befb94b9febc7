import { PGlite } from '@electric-sql/pglite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cacheStatements, PLANNED_PER_RUN } from './pglite-statements'

let plain: PGlite
let cached: PGlite

const setup = `
  create table items (id serial primary key, name text not null unique, price int, tags text[], at timestamptz,
    meta jsonb);
  insert into items (name, price, tags, at, meta) values
    ('英語', 1000, '{a,b}', '2026-11-22T01:00:00Z', '{"k":1}'),
    ('陶芸', 0, '{}', null, null);`

// Two PGlite instances start (WASM compile and initdb each): seconds on a busy machine, beyond the 10 s default.
beforeAll(async () => {
  plain = await PGlite.create()
  cached = await PGlite.create()
  await plain.exec(setup)
  await cached.exec(setup)
  cacheStatements(cached)
}, 60_000)
afterAll(async () => {
  await plain.close()
  await cached.close()
})

/** Statements prepared through the protocol on this connection (exec() itself prepares nothing). */
const prepared = async (db: PGlite) =>
  (
    (await db.exec('select count(*)::int as n from pg_prepared_statements where not from_sql'))[0]!
      .rows[0] as {
      n: number
    }
  ).n

describe('cacheStatements', () => {
  it('returns what PGlite’s own query() returns, in object and array row modes', async () => {
    const cases: [string, unknown[]][] = [
      ['select * from items order by id', []],
      ['select id, name, price, tags, at, meta from items where price >= $1 order by id', [0]],
      ['select name from items where name = any($1::text[])', [['英語', '陶芸']]],
      [
        'select $1::int as n, $2::text as t, $3::timestamptz as at, $4::jsonb as j',
        [null, 'x', new Date(0), { a: 1 }],
      ],
    ]
    for (const [text, params] of cases) {
      for (const options of [undefined, { rowMode: 'array' as const }]) {
        const want = await plain.query(text, params, options)
        const got = await cached.query(text, params, options)
        expect(got.rows, text).toEqual(want.rows)
        expect(got.fields, text).toEqual(want.fields)
        // Twice: the second run is the prepared one.
        expect((await cached.query(text, params, options)).rows, text).toEqual(want.rows)
      }
    }
    const write = await cached.query('update items set price = price where price > $1', [-1])
    expect(write.affectedRows).toBe(2)
  })

  it('takes the options drizzle passes (row mode and parsers) and binary parameters', async () => {
    // What drizzle-orm/pglite sends: arrays of values, timestamps left as text.
    const drizzleOptions = { rowMode: 'array' as const, parsers: { 1184: (value: string) => value } }
    const text = 'select id, at, $1::bytea as b from items order by id'
    const params = [new Uint8Array([0, 1, 255])]
    const want = await plain.query(text, params, drizzleOptions)
    expect(typeof (want.rows[0] as unknown[])[1]).toBe('string')
    // The same options object every run, as a prepared drizzle statement passes it (its parsers are made once).
    expect((await cached.query(text, params, drizzleOptions)).rows).toEqual(want.rows)
    expect((await cached.query(text, params, drizzleOptions)).rows).toEqual(want.rows)
    const other = 'select at, id from items order by id desc'
    expect((await cached.query(other, [], drizzleOptions)).rows).toEqual(
      (await plain.query(other, [], drizzleOptions)).rows,
    )
  })

  it('parses with the given parsers first and the client’s for every other type, in both row modes', async () => {
    // drizzle's own set: timestamps, dates and intervals as text; ints, arrays, json and booleans as PGlite parses.
    const parsers = Object.fromEntries(
      [1114, 1184, 1186, 1082, 1231, 1115, 1185, 1187, 1182].map((t) => [t, String]),
    )
    const text = `select id, price, tags, at, meta, at::date as day, interval '1 day' as span, price > 0 as paid,
      array[at] as ats, 1.5::numeric as n from items order by id`
    for (const rowMode of ['array', 'object'] as const) {
      const want = await plain.query(text, [], { rowMode, parsers })
      const got = await cached.query(text, [], { rowMode, parsers })
      expect(got.rows, rowMode).toEqual(want.rows)
      expect(got.fields, rowMode).toEqual(want.fields)
    }
    const [first] = (await cached.query<Record<string, unknown>>(text, [], { parsers })).rows
    expect(first).toMatchObject({ id: 1, price: 1000, tags: ['a', 'b'], meta: { k: 1 }, paid: true })
    expect(typeof first!.at).toBe('string')
    expect(typeof first!.span).toBe('string')
    // The client's own parsers are left as they were.
    expect(
      typeof (await cached.query<{ at: unknown }>('select at from items where id = 1')).rows[0]!.at,
    ).toBe('object')
  })

  it('prepares again when a table changes under a cached `select *`', async () => {
    await cached.exec('create table notes (id int primary key); insert into notes values (1)')
    const text = 'select * from notes where id = $1'
    expect((await cached.query(text, [1])).rows).toEqual([{ id: 1 }])
    await cached.exec("alter table notes add column body text default 'x'")
    expect((await cached.query(text, [1])).rows).toEqual([{ id: 1, body: 'x' }])
  })

  it('prepares a statement once per SQL text and lets PostgreSQL reuse its plan', async () => {
    const text = 'select name from items where price > $1 order by id'
    const before = await prepared(cached)
    for (let i = 0; i < 8; i++) await cached.query(text, [i])
    const after = await prepared(cached)
    expect(after).toBe(before + 1)
    const plans = await cached.exec(
      `select generic_plans + custom_plans as runs from pg_prepared_statements where statement = '${text}'`,
    )
    expect(plans[0]!.rows[0]).toEqual({ runs: 8 })
  })

  it('keeps no statement marked PLANNED_PER_RUN: it is planned for its values on every run', async () => {
    const text = `${PLANNED_PER_RUN} select name from items where price >= $1 order by id`
    const before = await prepared(cached)
    for (let i = 0; i < 8; i++)
      expect((await cached.query(text, [0])).rows).toEqual((await plain.query(text, [0])).rows)
    expect(await prepared(cached)).toBe(before)
  })

  it('fails like query(): the error names the query and the connection stays usable', async () => {
    const before = await prepared(cached)
    await expect(cached.query('select nonsense from', [])).rejects.toMatchObject({
      code: '42601',
      query: 'select nonsense from',
    })
    await expect(cached.query('insert into items (name) values ($1)', ['英語'])).rejects.toMatchObject({
      code: '23505',
      params: ['英語'],
    })
    await expect(cached.query('select $1::int as n', ['abc'])).rejects.toMatchObject({ code: '22P02' })
    expect((await cached.query<{ n: number }>('select $1::int as n', [7])).rows).toEqual([{ n: 7 }])
    const after = await prepared(cached)
    // The insert and the cast were prepared (they failed when run); the syntax error was not.
    expect(after).toBe(before + 2)
  })

  it('prepares again when PostgreSQL has dropped the statement', async () => {
    const text = 'select count(*)::int as n from items'
    expect((await cached.query(text)).rows).toEqual([{ n: 2 }])
    await cached.exec('deallocate all')
    expect((await cached.query(text)).rows).toEqual([{ n: 2 }])
  })

  it('keeps at most `max` statements, closing the oldest', async () => {
    const db = await PGlite.create()
    try {
      cacheStatements(db, { max: 2 })
      cacheStatements(db, { max: 2 }) // a second call changes nothing (and must not deadlock)
      for (const n of [1, 2, 3, 4]) await db.query(`select ${n} as n`)
      await db.query('select 4 as n')
      const kept = async () =>
        (await db.exec('select statement from pg_prepared_statements order by statement'))[0]!.rows
      expect(await kept()).toEqual([{ statement: 'select 3 as n' }, { statement: 'select 4 as n' }])
      // The next call closes what fell out, even when its own statement fails to parse.
      await db.query('select 5 as n')
      await expect(db.query('select from from')).rejects.toMatchObject({ code: '42601' })
      expect(await kept()).toEqual([{ statement: 'select 4 as n' }, { statement: 'select 5 as n' }])
    } finally {
      await db.close()
    }
  })

  it('waits for a transaction instead of running inside it', async () => {
    let release!: () => void
    const held = new Promise<void>((resolve) => {
      release = resolve
    })
    let inserted!: () => void
    const insertedYet = new Promise<void>((resolve) => {
      inserted = resolve
    })
    const tx = cached.transaction(async (t) => {
      await t.query("insert into items (name, price) values ('将棋', 500)")
      inserted()
      await held
      await t.rollback()
    })
    await insertedYet
    // Asked while the transaction is open: it must run after the rollback, not see the uncommitted row.
    const count = cached.query<{ n: number }>("select count(*)::int as n from items where name = '将棋'")
    await new Promise((resolve) => setTimeout(resolve, 20))
    release()
    await tx
    expect((await count).rows).toEqual([{ n: 0 }])
  })
})
