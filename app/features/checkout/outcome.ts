/**
 * Answers of a payment's confirm after which this checkout can no longer be paid (the hold ended, the lesson was
 * cancelled, late money was refunded, the seat was cancelled): the page reloads its checkout to say what became of it.
 */
const OVER = new Set(['hold_expired', 'canceled', 'refunded_no_seat', 'already_canceled'])

export const checkoutIsOver = (code: string | undefined): boolean => code !== undefined && OVER.has(code)
