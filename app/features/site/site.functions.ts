import { createServerFn } from '@tanstack/react-start'
import { titlePrefixFor } from '~/lib/page-title'
import { getConfig } from '~/server/config'

export type SiteConfig = {
  siteOrigin: string
  titlePrefix: string
  testPagesEnabled: boolean
  /** /test/mailbox: mails kept in the database (development, tests, the demo). */
  mailboxEnabled: boolean
  /** True while the embedded identity provider is in use (shows the デモ環境 badge). */
  demoIdentity: boolean
}

/** Public runtime settings the shell needs; read once at SSR and cached in the query client. */
export const getSiteConfig = createServerFn({ method: 'GET' }).handler(async (): Promise<SiteConfig> => {
  const config = getConfig()
  return {
    siteOrigin: config.siteOrigin,
    titlePrefix: titlePrefixFor(new URL(config.siteOrigin).host, config.environment),
    testPagesEnabled: config.testPagesEnabled,
    mailboxEnabled: config.mailboxEnabled,
    demoIdentity: !config.auth0,
  }
})
