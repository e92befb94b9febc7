import { appConfig } from '../../app.config'
import { SEARCH_INVALIDATE_CHANNEL } from '../api/search-invalidation'
import { getDb } from '../db/client'
import { getEventBus } from '../db/events'
import { stopAnalyzer } from '../jobs/analyzer.server'
import { RUBY_FILL_EVERY_MS, RUBY_FILL_KIND, rubyFillHandler } from '../jobs/ruby-fill.server'
import { type JobRunner, type JobRunnerOptions, startJobRunner } from '../jobs/runner.server'
import type { MailSettings } from '../mail/mailer.server'
import { closeMailTransport } from '../mail/mailer.server'
import { unsubscribeSecretOf } from '../mail/unsubscribe.server'
import { paymentHandlers, paymentRecurringJobs } from '../payments/jobs.server'
import { currentReceiptIssuer, getPaymentProvider } from '../payments/runtime.server'
import { AVATAR_SWEEP_EVERY_MS, AVATAR_SWEEP_KIND, avatarImageHandlers } from '../server/avatar-images.server'
import {
  CLASS_IMAGE_SWEEP_EVERY_MS,
  CLASS_IMAGE_SWEEP_KIND,
  classImageHandlers,
} from '../server/class-images.server'
import { getConfig } from '../server/config'
import { publishMemberEvent } from '../server/live-events.server'
import { logger } from '../server/logger.server'
import {
  purgeVerificationDocuments,
  VERIFICATION_PURGE_EVERY_MS,
  verificationUploadCheckHandler,
} from '../server/verification-documents.server'
import { notificationHandlers, recurringJobs } from './handlers.server'

/** The mail settings of this process, from the configuration. */
export function mailSettings(): MailSettings {
  const config = getConfig()
  return {
    siteName: appConfig.siteName,
    siteOrigin: config.siteOrigin,
    from: config.mailFrom,
    smtpUrl: config.smtpUrl,
    unsubscribeSecret: unsubscribeSecretOf(config),
  }
}

/** Seats moved by a job: every instance's cache of public reads empties (docs/decisions/0026). */
async function publicContentChanged(why: string) {
  await (await getEventBus()).publish(SEARCH_INVALIDATE_CHANNEL, why)
}

/**
 * What every instance's job runner does: the handler of each job kind, and the kinds it queues by itself on a
 * period (every recurring kind must have its handler; tests/integration/jobs.test.ts checks it).
 */
export function backgroundJobs(): Pick<JobRunnerOptions, 'handlers' | 'recurring'> {
  return {
    handlers: {
      ...notificationHandlers({
        mail: mailSettings(),
        publish: publishMemberEvent,
        publicContentChanged,
        issuer: currentReceiptIssuer,
      }),
      ...paymentHandlers({
        provider: () => getPaymentProvider(),
        issuer: currentReceiptIssuer,
        publicContentChanged,
      }),
      'verifications.purge': async (_job, ctx) => {
        await purgeVerificationDocuments(ctx.db, new Date())
      },
      [RUBY_FILL_KIND]: rubyFillHandler(publicContentChanged),
      ...classImageHandlers(),
      ...avatarImageHandlers(),
      ...verificationUploadCheckHandler(),
    },
    recurring: [
      ...recurringJobs,
      ...paymentRecurringJobs,
      { kind: 'verifications.purge', everyMs: VERIFICATION_PURGE_EVERY_MS },
      { kind: RUBY_FILL_KIND, everyMs: RUBY_FILL_EVERY_MS },
      { kind: CLASS_IMAGE_SWEEP_KIND, everyMs: CLASS_IMAGE_SWEEP_EVERY_MS },
      { kind: AVATAR_SWEEP_KIND, everyMs: AVATAR_SWEEP_EVERY_MS },
    ],
  }
}

let runner: Promise<JobRunner | undefined> | undefined

/**
 * Starts this instance's job runner once the database is reachable (every instance runs one; they share the
 * work). On the embedded database it polls every 250 ms; on PostgreSQL NOTIFY wakes it and it polls every second.
 */
export function startBackgroundWork(): void {
  runner ??= (async () => {
    for (let delay = 500; ; delay = Math.min(delay * 2, 10_000)) {
      try {
        const db = await getDb()
        const config = getConfig()
        const bus = await getEventBus().catch(() => undefined)
        return startJobRunner({
          db,
          bus: bus?.kind === 'postgres' ? bus : undefined,
          pollMs: config.databaseUrl ? 1000 : 250,
          ...backgroundJobs(),
        })
      } catch (err) {
        logger.warn({ err }, 'job runner waits for the database')
        await new Promise((r) => setTimeout(r, delay))
        if (!runner) return undefined
      }
    }
  })()
}

/** On shutdown, before the database closes: no new job is claimed, the ones running finish. */
export async function stopBackgroundWork(graceMs = 10_000): Promise<void> {
  const current = runner
  runner = undefined
  await (await current)?.stop(graceMs)
  closeMailTransport()
  await stopAnalyzer()
}
