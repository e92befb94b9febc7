import { render } from '@react-email/components'
import { eq } from 'drizzle-orm'
import type { Transporter } from 'nodemailer'
import type { Db } from '../db/client'
import { mails } from '../db/schema'
import { PermanentJobError } from '../jobs/runner.server'
import { notificationKind } from '../lib/notification-kinds'
import { type TemplateName, type TemplateProps, templates } from './templates'
import { unsubscribeToken } from './unsubscribe.server'

/**
 * The one way mail leaves the app (docs/decisions/0017). Jobs call `sendMail`; nothing sends in a request.
 * With SMTP_URL the mail goes to that server through nodemailer; without it the mail is stored in the `mails`
 * table and shown at /test/mailbox. Either way a row in `mails` records it, keyed by the Message-ID that the job
 * derives from its own id: a job run again after a crash finds the row and sends nothing twice.
 */

/**
 * Tries a `mail.send` job gets: with the runner's backoff (2ⁿ s, at most an hour) about nine hours, so that a relay
 * restarting or throttling (421) for a while delays mail instead of losing it. The table's default of 8 would give
 * up after about four minutes, and nothing queues the mail again (its dedupe key holds for a week).
 */
export const MAIL_MAX_ATTEMPTS = 20

/** Writes of the sent-mail row tried after SMTP took the mail, before the job gives up without sending again. */
const RECORD_TRIES = 3

export interface MailSettings {
  siteName: string
  siteOrigin: string
  from: string
  /** Signs the unsubscribe links. */
  unsubscribeSecret: string
  /** SMTP server URL; undefined keeps mails in the database. */
  smtpUrl?: string
}

export interface MailRequest<N extends TemplateName = TemplateName> {
  /** Unique per mail; a repeat is not sent again. */
  messageId: string
  to: string
  /** The member it is for (unsubscribe link, preference); absent for sign-up verification. */
  userId?: number
  template: N
  props: TemplateProps<N>
  /** The operator notice it announces: not sent once the notice is withdrawn (0019). */
  noticeId?: number
  /**
   * The reservation and lesson start it reminds of, confirms or moves to: not sent once the reservation is
   * cancelled, the lesson moved or cancelled, or its start passed (SMTP was away for hours).
   */
  reminds?: {
    purchaseId: number
    startedAt: string
    /** Still sent while the lesson is under way (a confirmation of a booking made a minute before the start). */
    untilEnd?: boolean
  }
  /** The waitlist offer it announces: not sent once that offer has ended (taken back, expired, booked). */
  offer?: { entryId: number; offeredAt: string }
}

export interface RenderedMail {
  subject: string
  html: string
  text: string
  headers: Record<string, string>
}

export async function renderMail(settings: MailSettings, request: MailRequest): Promise<RenderedMail> {
  const template = templates[request.template] as (typeof templates)[TemplateName]
  const kind = notificationKind(template.kind)
  const unsubscribeUrl =
    request.userId !== undefined && kind && !kind.mandatory
      ? `${settings.siteOrigin}/unsubscribe?token=${unsubscribeToken(settings.unsubscribeSecret, request.userId, kind.kind)}`
      : undefined
  const footer = {
    siteName: settings.siteName,
    siteUrl: `${settings.siteOrigin}/`,
    settingsUrl: `${settings.siteOrigin}/notification_settings`,
    unsubscribeUrl,
  }
  // biome-ignore lint/suspicious/noExplicitAny: the props were checked against the template when the job was queued
  const element = template.body({ ...(request.props as any), footer })
  const [html, text] = await Promise.all([render(element), render(element, { plainText: true })])
  const headers: Record<string, string> = {}
  if (unsubscribeUrl) {
    // RFC 8058: mail clients offer "unsubscribe" and POST to this URL without opening the site.
    headers['List-Unsubscribe'] = `<${unsubscribeUrl.replace('/unsubscribe?', '/mail/unsubscribe?')}>`
    headers['List-Unsubscribe-Post'] = 'List-Unsubscribe=One-Click'
  }
  // biome-ignore lint/suspicious/noExplicitAny: see above
  return { subject: template.subject(request.props as any), html, text, headers }
}

let transporter: { url: string; transport: Transporter } | undefined

async function smtpTransport(url: string): Promise<Transporter> {
  if (transporter?.url !== url) {
    transporter?.transport.close()
    const { createTransport } = await import('nodemailer')
    // Pooled connections (up to 5, reused for 100 messages each), unless the URL says otherwise: a connection per
    // mail costs more than rendering it.
    const pooled = new URL(url)
    if (!pooled.searchParams.has('pool')) pooled.searchParams.set('pool', 'true')
    transporter = { url, transport: createTransport(pooled.toString()) }
  }
  return transporter.transport
}

/** Sends (or stores) one mail, once per Message-ID. Returns false when it had already gone. */
export async function sendMail(db: Db, settings: MailSettings, request: MailRequest): Promise<boolean> {
  const [existing] = await db
    .select({ id: mails.id })
    .from(mails)
    .where(eq(mails.messageId, request.messageId))
    .limit(1)
  if (existing) return false
  const mail = await renderMail(settings, request)
  const kind = templates[request.template].kind
  if (settings.smtpUrl) {
    const transport = await smtpTransport(settings.smtpUrl)
    await transport.sendMail({
      from: settings.from,
      to: request.to,
      subject: mail.subject,
      html: mail.html,
      text: mail.text,
      messageId: request.messageId,
      headers: mail.headers,
    })
  }
  const record = () =>
    db
      .insert(mails)
      .values({
        messageId: request.messageId,
        userId: request.userId ?? null,
        kind,
        toAddress: request.to,
        subject: mail.subject,
        html: mail.html,
        text: mail.text,
        headers: mail.headers,
        transport: settings.smtpUrl ? 'smtp' : 'stored',
      })
      .onConflictDoNothing({ target: mails.messageId })
      .returning({ id: mails.id })
  if (!settings.smtpUrl) return (await record()).length > 0
  // The mail has left: a failed write of its row must not make the job send it again. Tried a few times (a
  // database blip), then the job ends as failed without another send.
  for (let tries = 1; ; tries++) {
    try {
      return (await record()).length > 0
    } catch (error) {
      if (tries >= RECORD_TRIES)
        throw new PermanentJobError(
          `mail ${request.messageId} was sent but could not be recorded: ${error instanceof Error ? error.message : String(error)}`,
        )
      await new Promise((r) => setTimeout(r, 200 * tries))
    }
  }
}

export function closeMailTransport() {
  transporter?.transport.close()
  transporter = undefined
}
