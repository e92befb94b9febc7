import { describe, expect, it, vi } from 'vitest'
import { ApiError } from './api-client/errors'
import { signedInFile } from './signed-in-file.server'

const request = new Request('https://manabi.example/downloads/sales.csv')
const renewed = 'manabi_session=renewed; Path=/; HttpOnly; SameSite=Lax'

/** A session getter as flow.server's: it may emit a renewed cookie before it answers. */
function sessionOf(answer: () => Promise<{ accessToken: string } | undefined>) {
  return (async (_request: Request, opts?: { onSetCookie?: (value: string) => void }) => {
    opts?.onSetCookie?.(renewed)
    return answer()
  }) as unknown as NonNullable<Parameters<typeof signedInFile>[3]>['session']
}
const signedIn = sessionOf(async () => ({ accessToken: 'token' }))

describe('signedInFile', () => {
  it('hands the token to the file and answers it privately, with the renewed session cookie', async () => {
    const make = vi.fn(async ({ accessToken, headers }) => {
      headers.set('Content-Type', 'text/csv; charset=utf-8')
      return new Response(`for ${accessToken}`, { headers })
    })
    const res = await signedInFile(request, 'sales-csv', make, { session: signedIn, headers: { 'X-A': 'b' } })
    expect(res.status).toBe(200)
    expect(await res.text()).toBe('for token')
    expect(res.headers.get('cache-control')).toBe('private, no-store')
    expect(res.headers.get('x-a')).toBe('b')
    expect(res.headers.getSetCookie()).toEqual([renewed])
  })

  it('answers 401 without a session, and the API refusal as its Japanese text', async () => {
    const make = vi.fn()
    const out = await signedInFile(request, 'sales-csv', make, { session: sessionOf(async () => undefined) })
    expect([out.status, await out.text()]).toEqual([401, 'ログインしてください'])
    expect(make).not.toHaveBeenCalled()

    const refused = await signedInFile(
      request,
      'sales-csv',
      async () => {
        throw new ApiError(403, 'forbidden', '先生として登録すると利用できます')
      },
      { session: signedIn },
    )
    expect([refused.status, await refused.text()]).toEqual([403, '先生として登録すると利用できます'])
    expect(refused.headers.get('content-type')).toBe('text/plain; charset=utf-8')
    expect(refused.headers.get('cache-control')).toBe('private, no-store')
  })

  it('answers 503 with Retry-After, never 500, when the session, the API or the store is away', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {})
    try {
      const failures = [
        // The session store (the database) is away.
        { session: sessionOf(async () => Promise.reject(new Error('connect ECONNREFUSED'))), make: vi.fn() },
        // The API answered 503, or did not answer.
        {
          session: signedIn,
          make: async () => {
            throw new ApiError(503, 'database_unavailable', 'しばらくしてからもう一度お試しください')
          },
        },
        // The file store failed.
        {
          session: signedIn,
          make: async () => {
            throw new Error('store away')
          },
        },
      ]
      for (const { session, make } of failures) {
        const res = await signedInFile(request, 'sales-csv', make, {
          session,
          headers: { 'X-Content-Type-Options': 'nosniff' },
        })
        expect(res.status).toBe(503)
        expect(res.headers.get('retry-after')).toBeTruthy()
        expect(res.headers.get('cache-control')).toBe('private, no-store')
        expect(await res.text()).toBe(
          'ただいまサービスを利用できません。しばらくしてからもう一度お試しください',
        )
        // The rotated session cookie, and the route's own headers, are not lost with the answer.
        expect(res.headers.getSetCookie()).toEqual([renewed])
        expect(res.headers.get('x-content-type-options')).toBe('nosniff')
      }
    } finally {
      error.mockRestore()
    }
  })
})
