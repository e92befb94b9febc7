/**
 * Money rules of checkout and payouts (issue 17) as pure functions. Prices are in yen, tax included (内税), as
 * Japanese e-commerce shows them.
 */

/** 消費税 10 %. */
export const CONSUMPTION_TAX_RATE = 0.1

/** The consumption tax included in a tax-included amount: amount × 10/110, rounded down (one rounding per receipt). */
export function includedTax(amount: number): number {
  return Math.floor((amount * 10) / 110)
}

/** How long a paid seat is held while the member pays. */
export const PAYMENT_HOLD_MS = 10 * 60 * 1000

/** The day a month's payout is transferred: the last day of the following month (YYYY-MM-DD). */
export function transferDateOf(month: string): string {
  const m = /^(\d{4})-(\d{2})$/.exec(month)
  if (!m) throw new RangeError(`not a month: ${month}`)
  // Day 0 of the month after next is the last day of the next month.
  const last = new Date(Date.UTC(Number(m[1]), Number(m[2]) + 1, 0))
  return last.toISOString().slice(0, 10)
}

/** The Luhn check every card number passes. */
export function luhnValid(digits: string): boolean {
  if (!/^\d{12,19}$/.test(digits)) return false
  let sum = 0
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i])
    if (i % 2 === 1) {
      d *= 2
      if (d > 9) d -= 9
    }
    sum += d
  }
  return sum % 10 === 0
}

/** A receipt's number as printed: R-000123. */
export const receiptNumber = (paymentId: number) => `R-${String(paymentId).padStart(6, '0')}`
