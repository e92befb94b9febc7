import { PGlite } from '@electric-sql/pglite'

const dir = process.argv[2]
const db = new PGlite(dir)
const r = await db.query(
  `select r.id, t.nickname, m.nickname as mn, (select count(*) from messages where room_id=r.id) n from rooms r join users t on t.id=r.teacher_id join users m on m.id=r.member_id`,
)
console.log(r.rows)
