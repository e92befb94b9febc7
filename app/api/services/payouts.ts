import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto'
import { and, asc, eq, gte, lt, type SQL, sql } from 'drizzle-orm'
import type { BankAccount, BankAccountInput, PayoutLine, PayoutStatement } from '../../contract/v1/payments'
import { audit } from '../../db/audit'
import type { Db } from '../../db/client'
import { rowsOf } from '../../db/rows'
import {
  classWorkSchedules,
  classWorks,
  payments,
  purchases,
  refunds,
  teacherBankAccounts,
} from '../../db/schema'
import { transaction } from '../../db/transaction'
import { enqueue } from '../../jobs/queue.server'
import { transferDateOf } from '../../lib/money'
import { tokyoMonth, tokyoMonthRange } from '../../lib/month'
import { actorLabel, type UserRow } from '../auth'
import { iso } from './class-cards'
import { requireTeacher } from './class-management'

/**
 * Payouts for teachers (issue 17; docs/decisions/0025). A month's statement counts what moved money in that Tokyo
 * month: payments that succeeded for the teacher's classes, and refunds paid out (a refund returns the platform's
 * commission too). It is transferred on the last day of the following month. A month whose refunds outweigh its
 * takings transfers nothing, and what it owes is taken from the next months' transfers (carried_over).
 */

export async function payoutStatement(
  db: Db,
  user: UserRow,
  month: string | undefined,
  now: Date,
): Promise<PayoutStatement> {
  requireTeacher(user)
  const shown = month ?? tokyoMonth(now)
  const { start, end } = tokyoMonthRange(shown)
  const base = (at: typeof payments.succeededAt | typeof refunds.succeededAt) =>
    db
      .select({
        at,
        purchaseId: purchases.id,
        title: classWorks.title,
        amount: payments.amount,
        commission: purchases.commission,
      })
      .from(payments)
      .innerJoin(purchases, eq(purchases.id, payments.purchaseId))
      .innerJoin(classWorkSchedules, eq(classWorkSchedules.id, purchases.scheduleId))
      .innerJoin(classWorks, eq(classWorks.id, classWorkSchedules.classWorkId))
  const [paid, refunded, carriedOver] = await Promise.all([
    base(payments.succeededAt)
      .where(
        and(
          eq(classWorks.teacherId, user.id),
          eq(payments.status, 'succeeded'),
          gte(payments.succeededAt, start),
          lt(payments.succeededAt, end),
        ),
      )
      .orderBy(asc(payments.succeededAt), asc(payments.id)),
    base(refunds.succeededAt)
      .innerJoin(refunds, eq(refunds.paymentId, payments.id))
      .where(
        and(
          eq(classWorks.teacherId, user.id),
          eq(refunds.status, 'succeeded'),
          gte(refunds.succeededAt, start),
          lt(refunds.succeededAt, end),
        ),
      )
      .orderBy(asc(refunds.succeededAt), asc(refunds.id)),
    carriedDeficit(db, user.id, start),
  ])
  const line =
    (kind: PayoutLine['kind']) =>
    (r: (typeof paid)[number]): PayoutLine => ({
      kind,
      at: iso(r.at!),
      purchase_id: r.purchaseId,
      class_title: r.title,
      amount: r.amount,
      commission: r.commission,
    })
  const sum = (rows: typeof paid, k: 'amount' | 'commission') => rows.reduce((s, r) => s + r[k], 0)
  const gross = sum(paid, 'amount')
  const commission = sum(paid, 'commission')
  const refunds_ = sum(refunded, 'amount')
  const refundedCommission = sum(refunded, 'commission')
  const net = gross - commission - (refunds_ - refundedCommission)
  return {
    month: shown,
    gross,
    commission,
    refunds: refunds_,
    refunded_commission: refundedCommission,
    net,
    carried_over: carriedOver,
    transfer_amount: Math.max(0, net + carriedOver),
    payment_count: paid.length,
    refund_count: refunded.length,
    transfer_date: transferDateOf(shown),
    lines: [...paid.map(line('payment')), ...refunded.map(line('refund'))].sort(
      (a, b) => a.at.localeCompare(b.at) || a.purchase_id - b.purchase_id,
    ),
  }
}

/**
 * What the months before `before` still owe the teacher's transfers (0 or negative). Each month transfers
 * max(0, its net + what it was carried), and carries min(0, the same) on: with C the running sum of the monthly
 * nets and P the most C has been (never below 0, what was transferred in all), the debt carried is C - P.
 */
export async function carriedDeficit(db: Db, teacherId: number, before: Date): Promise<number> {
  const month = (at: SQL) => sql`to_char(${at} at time zone 'Asia/Tokyo', 'YYYY-MM')`
  // A raw statement's parameters are not mapped by column: postgres-js takes a Date only as text.
  const until = sql`${before.toISOString()}::timestamptz`
  const rows = rowsOf<{ month: string; net: number | string }>(
    await db.execute(sql`
      select month, sum(net)::int as net from (
        select ${month(sql`${payments.succeededAt}`)} as month, ${payments.amount} - ${purchases.commission} as net
        from ${payments}
        join ${purchases} on ${purchases.id} = ${payments.purchaseId}
        join ${classWorkSchedules} on ${classWorkSchedules.id} = ${purchases.scheduleId}
        join ${classWorks} on ${classWorks.id} = ${classWorkSchedules.classWorkId}
        where ${classWorks.teacherId} = ${teacherId} and ${payments.status} = 'succeeded'
          and ${payments.succeededAt} < ${until}
        union all
        select ${month(sql`${refunds.succeededAt}`)}, -(${payments.amount} - ${purchases.commission})
        from ${refunds}
        join ${payments} on ${payments.id} = ${refunds.paymentId}
        join ${purchases} on ${purchases.id} = ${payments.purchaseId}
        join ${classWorkSchedules} on ${classWorkSchedules.id} = ${purchases.scheduleId}
        join ${classWorks} on ${classWorks.id} = ${classWorkSchedules.classWorkId}
        where ${classWorks.teacherId} = ${teacherId} and ${refunds.status} = 'succeeded'
          and ${refunds.succeededAt} < ${until}
      ) moved
      group by month
      order by month`),
  )
  let running = 0
  let transferred = 0
  for (const r of rows) {
    running += Number(r.net)
    transferred = Math.max(transferred, running)
  }
  return running - transferred
}

// ── the bank account ─────────────────────────────────────────────────────────────────────────────

const keyOf = (secret: string) => createHash('sha256').update(`bank-account v1\0${secret}`).digest()

/** AES-256-GCM; `iv.ciphertext.tag`, base64url. */
export function sealAccount(secret: string, value: { number: string; holder: string }): string {
  const iv = randomBytes(12)
  const cipher = createCipheriv('aes-256-gcm', keyOf(secret), iv)
  const body = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()])
  return [iv, body, cipher.getAuthTag()].map((b) => b.toString('base64url')).join('.')
}

export function openAccount(secret: string, sealed: string): { number: string; holder: string } {
  const [iv, body, tag] = sealed.split('.').map((p) => Buffer.from(p, 'base64url'))
  const decipher = createDecipheriv('aes-256-gcm', keyOf(secret), iv!)
  decipher.setAuthTag(tag!)
  return JSON.parse(Buffer.concat([decipher.update(body!), decipher.final()]).toString('utf8'))
}

/** ﾀﾅｶ ﾀﾛｳ → タ＊＊ タ＊＊: enough to recognise one's own account, not enough to read it. */
export function maskHolder(holder: string): string {
  return holder
    .split(/[\s　]+/)
    .filter(Boolean)
    .map((w) => `${[...w][0]}${'＊'.repeat(Math.max(1, [...w].length - 1))}`)
    .join(' ')
}

export async function bankAccountOf(db: Db, user: UserRow, secret: string): Promise<BankAccount> {
  requireTeacher(user)
  const [row] = await db.select().from(teacherBankAccounts).where(eq(teacherBankAccounts.userId, user.id))
  if (!row) return null
  // Sealed under another secret (SESSION_SECRET changed, as after a leak): unreadable for good, so the teacher is
  // asked to enter it again rather than the payouts page failing.
  let holder: string | undefined
  try {
    holder = openAccount(secret, row.encrypted).holder
  } catch {
    holder = undefined
  }
  return {
    bank_name: row.bankName,
    branch_name: row.branchName,
    account_type: row.accountType as 'futsu' | 'toza',
    number_masked: `＊＊＊${row.numberLast4}`,
    holder_masked: holder === undefined ? null : maskHolder(holder),
    needs_reentry: holder === undefined,
    updated_at: iso(row.updatedAt),
  }
}

/**
 * Sets or replaces the teacher's payout account. Where the money goes is a security event: audited, and mailed to
 * the teacher (a kind no one can switch off), in the same transaction, so that a stolen session cannot redirect
 * payouts unnoticed.
 */
export async function saveBankAccount(
  db: Db,
  user: UserRow,
  input: BankAccountInput,
  secret: string,
  now: Date,
  address?: string,
): Promise<BankAccount> {
  requireTeacher(user)
  const values = {
    bankName: input.bank_name,
    branchName: input.branch_name,
    accountType: input.account_type,
    numberLast4: input.account_number.slice(-4),
    encrypted: sealAccount(secret, { number: input.account_number, holder: input.holder_kana }),
    updatedAt: now,
  }
  await transaction(db, async (tx) => {
    const [before] = await tx
      .select({ bankName: teacherBankAccounts.bankName, numberLast4: teacherBankAccounts.numberLast4 })
      .from(teacherBankAccounts)
      .where(eq(teacherBankAccounts.userId, user.id))
      .for('update')
    await tx
      .insert(teacherBankAccounts)
      .values({ userId: user.id, ...values })
      .onConflictDoUpdate({ target: teacherBankAccounts.userId, set: values })
    await audit(tx, {
      actorId: user.id,
      actorLabel: actorLabel(user),
      action: 'bank_account_change',
      targetType: 'user',
      targetId: user.id,
      address,
      before: before ? { bank_name: before.bankName, number_last4: before.numberLast4 } : null,
      after: { bank_name: values.bankName, number_last4: values.numberLast4 },
    })
    // What was saved, not what the account is when the job runs: changed and changed back within seconds, each
    // mail still tells its own account.
    await enqueue(tx, 'notify.bank_account_changed', {
      userId: user.id,
      bankName: values.bankName,
      numberLast4: values.numberLast4,
    })
  })
  return bankAccountOf(db, user, secret)
}
