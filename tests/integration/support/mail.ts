import type { MailSettings } from '../../../app/mail/mailer.server'

/** The mail settings tests use: the demo's site, a fixed unsubscribe key, and SMTP only when a server is given. */
export const testMailSettings = (smtpUrl?: string): MailSettings => ({
  siteName: 'まなびのたね',
  siteOrigin: 'http://localhost:3000',
  from: 'まなびのたね <no-reply@manabi.example>',
  unsubscribeSecret: 'test-unsubscribe-secret-0123456789abcdef',
  smtpUrl,
})
