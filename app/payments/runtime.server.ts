import '@tanstack/react-start/server-only'
import type { ReceiptIssuer } from '../api/services/payments'
import { type Db, getDb } from '../db/client'
import { configuredReceiptIssuer } from '../db/receipt-issuers'
import { getConfig } from '../server/config'
import { embeddedPaymentProvider } from './embedded.server'
import type { PaymentProvider } from './provider.server'
import { stripePaymentProvider } from './stripe.server'

/** Stripe when its keys are configured, else the embedded test provider keeping its books in `getDb`'s database. */
export function configuredPaymentProvider(database: () => Promise<Db>): PaymentProvider {
  const { stripe } = getConfig()
  return stripe
    ? stripePaymentProvider({ secretKey: stripe.secretKey, webhookSecret: stripe.webhookSecret })
    : embeddedPaymentProvider(database)
}

let provider: PaymentProvider | undefined

/** This process's payment provider, on the app's database. */
export function getPaymentProvider(): PaymentProvider {
  provider ??= configuredPaymentProvider(getDb)
  return provider
}

/** Who issues receipts now: the platform's name and INVOICE_REGISTRATION_NUMBER (recorded on each payment). */
export function currentReceiptIssuer(): ReceiptIssuer {
  return configuredReceiptIssuer(getConfig())
}
