import { notFound } from '@tanstack/react-router'
import { createServerFn } from '@tanstack/react-start'
import { z } from 'zod'
import { getConfig } from '~/server/config'

/**
 * The database mailbox (issue 14): where mails go while no SMTP server is configured — development, tests and the
 * demo. It reads the `mails` table directly; it exists only where config.mailboxEnabled says so (never in
 * production with Auth0), and answers 404 elsewhere.
 */
async function mailboxDb() {
  if (!getConfig().mailboxEnabled) throw notFound()
  const [{ getDb }, schema] = await Promise.all([import('~/db/client'), import('~/db/schema')])
  return { db: await getDb(), mails: schema.mails }
}

const PAGE = 50

export const listMailbox = createServerFn({ method: 'GET' })
  .validator(z.object({ to: z.string().max(254).optional() }).strict())
  .handler(async ({ data }) => {
    const { db, mails } = await mailboxDb()
    const { desc, sql } = await import('drizzle-orm')
    const rows = await db
      .select({
        id: mails.id,
        to: mails.toAddress,
        subject: mails.subject,
        kind: mails.kind,
        createdAt: mails.createdAt,
      })
      .from(mails)
      .where(data.to ? sql`lower(${mails.toAddress}) = ${data.to.toLowerCase()}` : undefined)
      .orderBy(desc(mails.id))
      .limit(PAGE)
    return rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() }))
  })

export const getMailboxMail = createServerFn({ method: 'GET' })
  .validator(z.object({ id: z.number().int().positive().max(2_147_483_647) }).strict())
  .handler(async ({ data }) => {
    const { db, mails } = await mailboxDb()
    const { eq } = await import('drizzle-orm')
    const [row] = await db.select().from(mails).where(eq(mails.id, data.id)).limit(1)
    if (!row) throw notFound()
    return {
      id: row.id,
      to: row.toAddress,
      subject: row.subject,
      kind: row.kind,
      html: row.html,
      text: row.text,
      headers: row.headers as Record<string, string>,
      createdAt: row.createdAt.toISOString(),
    }
  })
