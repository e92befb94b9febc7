import { render } from '@react-email/components'
import { eq } from 'drizzle-orm'
import type { Transporter } from 'nodemailer'
import type { Db } from '../db/client'
import { mails } from '../db/schema'
import { notificationKind } from '../lib/notification-kinds'
import { type TemplateName, type TemplateProps, templates } from './templates'
import { unsubscribeToken } from './unsubscribe.server'

/**
 * The one way mail leaves the app (docs/decisions/0017). Jobs call `sendMail`; nothing sends in a request.
 * With SMTP_URL the mail goes to that server through nodemailer; without it the mail is stored in the `mails`
 * table and shown at /test/mailbox. Either way a row in `mails` records it, keyed by the Message-ID that the job
 * derives from its own id: a job run again after a crash finds the row and sends nothing twice.
 */

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
  const inserted = await db
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
  return inserted.length > 0
}

export function closeMailTransport() {
  transporter?.transport.close()
  transporter = undefined
}
