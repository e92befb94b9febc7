import { DrizzleQueryError } from 'drizzle-orm/errors'
import { describe, expect, it } from 'vitest'
import { errorLine, withoutQueryParams } from './log-safe'

const TOKEN = 'cal_4f9d2c7e1b8a6f3d5c0e9b7a2d4f6e8c'

describe('withoutQueryParams', () => {
  it('keeps the statement and the cause, never the bound values', () => {
    const cause = Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' })
    const err = new DrizzleQueryError('select "id" from "users" where "calendar_token" = $1', [TOKEN], cause)
    const safe = withoutQueryParams(err) as Error
    expect(safe.message).toContain('select "id" from "users"')
    expect(safe.message).not.toContain(TOKEN)
    expect(safe.stack).not.toContain(TOKEN)
    expect(safe.cause).toBe(cause)
    const line = errorLine(err)
    expect(line).not.toContain(TOKEN)
    expect(line).toContain('statement timeout')
  })

  it("leaves a calendar feed's token out of the paths an error names (a failed HTTP call names its URL)", () => {
    const fetchFailed = new Error(
      `[GET] "http://api.internal/v1/calendar_feeds/${TOKEN}": <no response> fetch failed`,
    )
    const err = new Error('サーバーに接続できませんでした', { cause: fetchFailed })
    const line = errorLine(err)
    expect(line).not.toContain(TOKEN)
    expect(line).toContain('/v1/calendar_feeds/{token}": <no response> fetch failed')
    expect(errorLine(new Error(`GET /calendar/${TOKEN}.ics failed`))).toBe('GET /calendar/{token}.ics failed')
    expect(errorLine(new Error('POST /v1/users/calendar/regenerate failed'))).toBe(
      'POST /v1/users/calendar/regenerate failed',
    )
  })

  it('leaves other errors as they are', () => {
    const plain = new Error('connect ECONNREFUSED 127.0.0.1:5432')
    expect(withoutQueryParams(plain)).toBe(plain)
    expect(withoutQueryParams('text')).toBe('text')
    expect(errorLine(plain)).toBe('connect ECONNREFUSED 127.0.0.1:5432')
  })
})
