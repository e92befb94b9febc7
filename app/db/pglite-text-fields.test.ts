import { PGlite } from '@electric-sql/pglite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

// patches/@electric-sql+pglite+0.5.16.patch (docs/decisions/0050): the embedded database's protocol reader decodes
// a text field where it lies in the message, instead of copying it into a new ArrayBuffer first.
let db: PGlite

beforeAll(async () => {
  db = await PGlite.create()
  await db.exec(`create table t (id int, title text);
    insert into t select g, 'タイトル' || g || '😀' from generate_series(1, 20) g;`)
}, 60_000)
afterAll(async () => {
  await db.close()
})

describe('the patched PGlite protocol reader', () => {
  it('reads every text field, multi-byte ones too, without copying each into a buffer of its own', async () => {
    const text = 'select id, title from t order by id'
    await db.query(text)
    const slice = ArrayBuffer.prototype.slice
    let copies = 0
    ArrayBuffer.prototype.slice = function (this: ArrayBuffer, ...args: [number?, number?]) {
      copies++
      return slice.apply(this, args)
    }
    let rows: { id: number; title: string }[]
    try {
      rows = (await db.query<{ id: number; title: string }>(text)).rows
    } finally {
      ArrayBuffer.prototype.slice = slice
    }
    expect(rows).toHaveLength(20)
    expect(rows[0]).toEqual({ id: 1, title: 'タイトル1😀' })
    expect(rows[19]).toEqual({ id: 20, title: 'タイトル20😀' })
    // Unpatched, each of the 40 fields and 2 column names was a copy (55 in all); patched, what is left is the
    // messages' own framing (9).
    expect(copies).toBeLessThan(20)
  })
})
