import { randomBytes } from 'node:crypto'
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
