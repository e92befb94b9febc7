import '@tanstack/react-start/server-only'
import pino from 'pino'

/**
 * The server's one logger: JSON lines on stdout (pino). Client errors (4xx) are logged as one line without a
 * stack; our own faults (5xx) with their stack. LOG_LEVEL sets the threshold (read directly: the logger must work
 * even while the configuration is being reported as wrong).
 */
const LEVELS = new Set(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
const requested = process.env.LOG_LEVEL ?? ''

export const logger = pino({
  level: LEVELS.has(requested) ? requested : process.env.NODE_ENV === 'test' ? 'silent' : 'info',
  base: undefined,
  redact: ['req.headers.cookie', 'req.headers.authorization', '*.token', '*.accessToken', '*.refreshToken'],
})
