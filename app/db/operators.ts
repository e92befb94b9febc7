import { and, asc, eq, sql } from 'drizzle-orm'
import { audit } from './audit'
import type { Db } from './client'
import { users } from './schema'

/**
 * The operator role (運営), granted and revoked only here, from the command line (`npm run operator`), never by
 * the UI or the API. Each change is audited with who ran it.
 */

export class OperatorCommandError extends Error {
  override name = 'OperatorCommandError'
}

export async function setOperator(db: Db, email: string, grant: boolean, actorLabel: string) {
  const address = email.trim().toLowerCase()
  return db.transaction(async (tx) => {
    const rows = await tx
      .select({ id: users.id, nickname: users.nickname, isOperator: users.isOperator })
      .from(users)
      // The role goes only to an address its owner proved: an identity provider that hands over an unverified
      // e-mail claim (some social logins) would otherwise let anyone register with a new staff member's address.
      // Revoking takes every row with the address.
      .where(and(sql`lower(${users.email}) = ${address}`, grant ? eq(users.emailVerified, true) : undefined))
      .orderBy(asc(users.id))
      .for('update')
    if (rows.length === 0)
      throw new OperatorCommandError(
        `No registered member has the verified e-mail ${address}: they must sign up, confirm it and register first.`,
      )
    if (grant && rows.length > 1)
      throw new OperatorCommandError(
        `Several members have the e-mail ${address} (ids ${rows.map((r) => r.id).join(', ')}): nothing granted.`,
      )
    const changed = rows.filter((r) => r.isOperator !== grant)
    for (const r of changed) {
      await tx.update(users).set({ isOperator: grant }).where(eq(users.id, r.id))
      await audit(tx, {
        actorLabel,
        action: grant ? 'role_grant' : 'role_revoke',
        targetType: 'user',
        targetId: r.id,
        before: { is_operator: r.isOperator },
        after: { is_operator: grant, email: address },
      })
    }
    return { matched: rows.length, changed: changed.length }
  })
}

export async function listOperators(db: Db) {
  return db
    .select({ id: users.id, email: users.email, nickname: users.nickname })
    .from(users)
    .where(eq(users.isOperator, true))
    .orderBy(asc(users.id))
}
