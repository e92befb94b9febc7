import '@tanstack/react-start/server-only'
import type { PaymentDeps, ReceiptIssuer } from '../api/services/payments'
import { cancelAtProvider, expireHold, reconcilePayments, runRefund } from '../api/services/payments'
import type { Db } from '../db/client'
import type { JobHandler, RecurringJob } from '../jobs/runner.server'
import { JobNotDueError, PermanentJobError } from '../jobs/runner.server'
import type { PaymentProvider } from './provider.server'

/** How often the reconciliation sweep asks the provider about payments whose outcome was not recorded. */
export const RECONCILE_EVERY_MS = 60_000

const positiveId = (v: unknown, name: string): number => {
  if (typeof v === 'number' && Number.isInteger(v) && v > 0) return v
  throw new PermanentJobError(`payload.${name} must be a positive integer`)
}

/**
 * The payment jobs (issue 17; docs/decisions/0025): the end of a hold, giving a payment up at the provider, paying
 * out a refund, and the reconciliation sweep. Each is safe to run again: what it does is keyed by our rows.
 */
export function paymentHandlers(deps: {
  provider: (db: Db) => PaymentProvider
  /** Who issues receipts now, recorded on each payment a job settles. */
  issuer: () => ReceiptIssuer
  /** Seats moved: public pages may have changed (see NotificationDeps.publicContentChanged). */
  publicContentChanged?: (why: string) => Promise<void>
  /** The clock (tests move it). */
  clock?: () => Date
}): Record<string, JobHandler> {
  const clock = deps.clock ?? (() => new Date())
  // `now` is read at each use, not once per job: a sweep makes up to 100 provider calls (seconds each at Stripe),
  // and a payment or refund is dated when it is recorded. Dated at the sweep's start, one the provider took just
  // after midnight at a month's end would land in the month before, whose statement was already closed.
  const paymentDeps = (db: Db): PaymentDeps => ({
    get now() {
      return clock()
    },
    provider: deps.provider(db),
    issuer: deps.issuer(),
  })
  return {
    'payments.expire_hold': async (job, { db }) => {
      const outcome = await expireHold(db, positiveId(job.payload.purchaseId, 'purchaseId'), paymentDeps(db))
      // Finishing it early would leave the seat held for good: nothing else ends a hold.
      if (outcome instanceof Date) throw new JobNotDueError(outcome)
      if (outcome === 'changed') await deps.publicContentChanged?.('job:payments.expire_hold')
    },
    'payments.cancel': async (job, { db }) => {
      await cancelAtProvider(db, positiveId(job.payload.paymentId, 'paymentId'), paymentDeps(db))
    },
    'payments.refund': async (job, { db }) => {
      await runRefund(db, positiveId(job.payload.refundId, 'refundId'), paymentDeps(db))
    },
    'payments.reconcile': async (_job, { db }) => {
      if ((await reconcilePayments(db, paymentDeps(db))) > 0)
        await deps.publicContentChanged?.('job:payments.reconcile')
    },
  }
}

export const paymentRecurringJobs: RecurringJob[] = [
  { kind: 'payments.reconcile', everyMs: RECONCILE_EVERY_MS },
]
