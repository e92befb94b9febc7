import { randomBytes } from 'node:crypto'
import { eq } from 'drizzle-orm'
import type { Db } from '../../../app/db/client'
import { users } from '../../../app/db/schema'
import { TEST_ISSUER } from './constants'

/** `n` new registered parents of the test issuer; their subjects (for tokenFor / api.as). */
export async function insertMembers(db: Db, prefix: string, n: number): Promise<string[]> {
  const tag = randomBytes(3).toString('hex')
  const subs = Array.from({ length: n }, (_, i) => `${prefix}|${i}-${tag}`)
  await db.insert(users).values(
    subs.map((sub, i) => ({
      issuer: TEST_ISSUER,
      sub,
      email: `${sub.replace(/[^a-z0-9]/gi, '')}@manabi.example`,
      emailVerified: true,
      nickname: `受講者${i}`,
      name: `受講者${i}`,
      nameKana: 'ジュコウシャ',
      role: 'parent' as const,
      agreedToTermsAt: new Date(),
    })),
  )
  return subs
}

/** The address insertMembers gives a subject. */
export const emailOf = (sub: string) => `${sub.replace(/[^a-z0-9]/gi, '')}@manabi.example`

/**
 * A new verified teacher of the test issuer; their subject. For tests that give a class lessons at times of their
 * own choosing: the demo teacher already teaches the seeded lessons, and a teacher gives one lesson at a time
 * (docs/decisions/0056).
 */
export async function insertTeacher(db: Db, prefix: string, verifiedAt = new Date()): Promise<string> {
  const [sub] = await insertMembers(db, prefix, 1)
  await db
    .update(users)
    .set({ isTeacher: true, role: 'teacher', teacherVerifiedAt: verifiedAt })
    .where(eq(users.sub, sub!))
  return sub!
}
