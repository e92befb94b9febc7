import { toJSON } from 'seroval'
import { describe, expect, it, vi } from 'vitest'

vi.stubEnv('SESSION_SECRET', 'server-fn-errors-test-secret-0123456789abcdef')

const { isServerFnPayload, precheckServerFnRequest } = await import('./server-fn-errors.server')

const URL_OF_FN = 'http://localhost:3000/_serverFn/0123abcd'
/** The wire form of `{ data }`, as the client serializes a call's input. */
const wire = (data: unknown) => JSON.stringify(toJSON({ data }))
/** `{ data: <node> }` around a raw seroval node. */
const around = (node: string) => `{"t":{"t":10,"i":0,"p":{"k":["data"],"v":[${node}]},"o":0},"f":31,"m":[]}`

const post = (body: string, type = 'application/json') =>
  new Request(URL_OF_FN, { method: 'POST', headers: { 'content-type': type }, body })
const get = (payload?: string) =>
  new Request(payload === undefined ? URL_OF_FN : `${URL_OF_FN}?payload=${encodeURIComponent(payload)}`)

// Start answers a payload it cannot read with 500 and prints the error's stack: one per request an attacker sends.
const unreadable = [
  '{bad json',
  '[]',
  'null',
  '""',
  '{"t":5}',
  around('{"t":99}'),
  around('{"t":10,"i":1}'),
  around('{"t":9,"i":1,"a":7,"o":0}'),
  around('{"t":18,"i":42}'),
]

describe('server-function payloads', () => {
  it('what the client sends is readable: objects, arrays, dates, strings with NUL, empty input', () => {
    for (const data of [{ id: 1 }, { ids: [1, 2], at: new Date(0), q: 'x\u0000y' }, undefined, 'text', [1]])
      expect(isServerFnPayload(wire(data)), JSON.stringify(data)).toBe(true)
  })

  it('what does not deserialize is not', () => {
    for (const text of unreadable) expect(isServerFnPayload(text), text).toBe(false)
  })

  it('a plugin node is left to Start, which has the plugins', () => {
    expect(isServerFnPayload(around('{"t":25,"i":1,"s":{},"c":"tss/unknown"}'))).toBe(true)
  })

  it('a POST body or a GET payload that is not readable is refused with 400 and a Japanese message', async () => {
    for (const text of unreadable)
      for (const request of [post(text), get(text)]) {
        const refused = await precheckServerFnRequest(request)
        expect(refused?.status, `${request.method} ${text}`).toBe(400)
        expect(refused?.headers.get('x-error-code')).toBe('invalid_request')
        expect(await refused?.json()).toEqual({ code: 'invalid_request', message: '不正なリクエストです' })
      }
  })

  it('an empty JSON body is refused too (Start fails reading it)', async () => {
    expect((await precheckServerFnRequest(post('')))?.status).toBe(400)
  })

  it('readable calls, GETs without a payload and form uploads go on to Start', async () => {
    expect(await precheckServerFnRequest(post(wire({ id: 1 })))).toBeUndefined()
    expect(await precheckServerFnRequest(get(wire({ page: 2 })))).toBeUndefined()
    expect(await precheckServerFnRequest(get())).toBeUndefined()
    expect(await precheckServerFnRequest(get(''))).toBeUndefined()
    expect(await precheckServerFnRequest(post('--x\r\n', 'multipart/form-data; boundary=x'))).toBeUndefined()
  })
})
