import { and, eq, isNull } from 'drizzle-orm'
import { appConfig } from '../../app.config'
import type { ServerConfig } from '../server/config'
import type { DbOrTx } from './client'
import { payments } from './schema'

/** The platform as its receipts name it under this configuration: its name and INVOICE_REGISTRATION_NUMBER. */
export function configuredReceiptIssuer(config: Pick<ServerConfig, 'invoiceRegistrationNumber'>): {
  name: string
  registrationNumber: string | null
} {
  return { name: appConfig.siteName, registrationNumber: config.invoiceRegistrationNumber ?? null }
}

/**
 * Succeeded payments with no issuer recorded — from before migration 0043, or the demo seed — are stamped with the
 * issuer configured as the app opens its database: from then on their receipts stay as they are, whatever the
 * configuration becomes (docs/decisions/0057). Nothing older is known. A no-op once done; every instance runs it.
 */
export async function stampReceiptIssuers(
  db: DbOrTx,
  issuer: { name: string; registrationNumber: string | null },
): Promise<number> {
  const stamped = await db
    .update(payments)
    .set({ receiptIssuerName: issuer.name, receiptRegistrationNumber: issuer.registrationNumber })
    .where(and(eq(payments.status, 'succeeded'), isNull(payments.receiptIssuerName)))
    .returning({ id: payments.id })
  return stamped.length
}
