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

/**
 * A calendar feed's address is its secret (anyone holding it reads the owner's lessons): the API's
 * /v1/calendar_feeds/{token} and the site's /calendar/{token}.ics. A failed HTTP call names its URL in its message.
 */
const SECRET_PATHS = /(\/calendar_feeds\/)[^/\s"'?#]+|(\/calendar\/)[^/\s"'?#]+(\.ics)/g

/** Text as it may be logged: a calendar feed's token left out of any path in it. */
export function withoutSecretPaths(text: string): string {
  return text.replace(SECRET_PATHS, (_, api, site, ics) => (api ? `${api}{token}` : `${site}{token}${ics}`))
}

/**
 * One line for a log: the message without the parameters, and the cause's message (the driver's reason), neither
 * with a calendar feed's token.
 */
export function errorLine(err: unknown): string {
  const safe = withoutQueryParams(err)
  if (!(safe instanceof Error)) return withoutSecretPaths(String(safe))
  const cause = safe.cause instanceof Error ? ` (${safe.cause.message})` : ''
  return withoutSecretPaths(`${safe.message}${cause}`)
}
