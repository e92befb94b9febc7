import { and, eq, sql } from 'drizzle-orm'
import { jobs } from '../../../app/db/schema'
import { RUBY_FILL_KIND, rubyFillHandler } from '../../../app/jobs/ruby-fill.server'
import { type JobHandler, startJobRunner } from '../../../app/jobs/runner.server'
import { type NotificationDeps, notificationHandlers } from '../../../app/notifications/handlers.server'
import { embeddedPaymentProvider } from '../../../app/payments/embedded.server'
import { paymentHandlers } from '../../../app/payments/jobs.server'
import { TEST_RECEIPT_ISSUER, type TestApi } from './api'
import { testMailSettings } from './mail'

/**
 * Every job handler the app's runner has (notifications, payments, furigana), with the embedded payment provider on the
 * database the job runs on: what tests drain.
 */
export function appJobHandlers(deps: Omit<NotificationDeps, 'issuer'>) {
  return {
    ...notificationHandlers({ issuer: () => TEST_RECEIPT_ISSUER, ...deps }),
    ...paymentHandlers({
      provider: (db) => embeddedPaymentProvider(async () => db),
      issuer: () => TEST_RECEIPT_ISSUER,
    }),
    [RUBY_FILL_KIND]: rubyFillHandler(async () => {}),
  }
}

/** Runs every due job with the app's handlers (mail to the database mailbox) until none is left, as the runner would. */
export function drainAppJobs(api: Pick<TestApi, 'db'>) {
  return startJobRunner({
    db: api.db,
    autoStart: false,
    handlers: appJobHandlers({ mail: testMailSettings() }),
  }).drain()
}

/**
 * Runs, as the runner would, the jobs of `kind` queued (only those for the upload at `path` when given), and removes
 * them; how many.
 */
export async function runQueuedJobs(api: TestApi, kind: string, handler: JobHandler, path?: string) {
  const queued = await api.db
    .select()
    .from(jobs)
    .where(and(eq(jobs.kind, kind), path === undefined ? undefined : sql`${jobs.payload}->>'path' = ${path}`))
  for (const job of queued) {
    await handler(
      { id: job.id, kind: job.kind, payload: job.payload as Record<string, unknown>, attempts: 1 },
      { db: api.db },
    )
    await api.db.delete(jobs).where(eq(jobs.id, job.id))
  }
  return queued.length
}
