import { classWorkSearchQueries } from '/work/main/app/api/services/class-works'
import { openDatabase } from '/work/main/app/db/client'
const url = process.argv[2]!
const params = JSON.parse(process.argv[3]!)
const d = await openDatabase({ url, migrate: false } as never)
const q = classWorkSearchQueries(d.db, { ...params, now: new Date() })
const show = (name: string, x: { toSQL(): { sql: string; params: unknown[] } }) => {
  const { sql, params } = x.toSQL()
  let s = sql
  params.forEach((p, i) => { s = s.replace(new RegExp(`\\$${i + 1}(?!\\d)`), typeof p === 'number' ? String(p) : `'${String(p).replace(/'/g, "''")}'`) })
  console.log(`-- ${name}\n${s};`)
}
show('count', q.count)
show('ranked', q.ranked(0))
show('walk0', q.walk(0, 20, 0))
await d.close()
