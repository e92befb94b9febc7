import { RUBY_FILL_KIND, rubyFillHandler } from '../../../app/jobs/ruby-fill.server'
import { type NotificationDeps, notificationHandlers } from '../../../app/notifications/handlers.server'
import { embeddedPaymentProvider } from '../../../app/payments/embedded.server'
import { paymentHandlers } from '../../../app/payments/jobs.server'

/**
 * Every job handler the app's runner has (notifications, payments, furigana), with the embedded payment provider on the
 * database the job runs on: what tests drain.
 */
export function appJobHandlers(deps: NotificationDeps) {
  return {
    ...notificationHandlers(deps),
    ...paymentHandlers({ provider: (db) => embeddedPaymentProvider(async () => db) }),
    [RUBY_FILL_KIND]: rubyFillHandler(async () => {}),
  }
}
