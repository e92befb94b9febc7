/**
 * Drizzle's DrizzleQueryError puts the statement's bound parameters in its message ("params: …"): a calendar
 * feed's secret token, an e-mail address, a message body. A log line carries the statement and the cause, never
 * those values.
 */
const PARAMS = /\nparams: [\s\S]*?(?=\n {4}at |$)/

/** The error as it may be logged: the same error, or a copy whose message and stack leave the parameters out. */
export function withoutQueryParams(err: unknown): unknown {
  if (!(err instanceof Error) || !PARAMS.test(err.message)) return err
  const copy = new Error(err.message.replace(PARAMS, '\nparams: [redacted]'), { cause: err.cause })
  copy.name = err.name
  copy.stack = err.stack?.replace(PARAMS, '\nparams: [redacted]')
  return copy
}

/** One line for a log: the message without the parameters, and the cause's message (the driver's reason). */
export function errorLine(err: unknown): string {
  const safe = withoutQueryParams(err)
  if (!(safe instanceof Error)) return String(safe)
  const cause = safe.cause instanceof Error ? ` (${safe.cause.message})` : ''
  return `${safe.message}${cause}`
}
