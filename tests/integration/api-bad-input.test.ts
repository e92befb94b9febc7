/**
 * Bad input on every /v1 route, read from the OpenAPI document so that a new route is covered without a line here:
 * a path id or a JSON body that no caller means answers 4xx with a stable code and a Japanese message, as a
 * visitor, a parent, a teacher, an organisation owner and an operator; a query value no page means is that, or an
 * answer (a keyword may be anything) — never 500.
 *
 * Nothing is written: query values go to GETs only, and the path ids and bodies sent are ones the contract refuses
 * (a route that took one shows up as a 2xx below). The rate limits are off, so each call reaches its route.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { setupApi, type TestApi } from './support/api'
import { SUBS, tokenFor } from './support/tokens'

let api: TestApi
beforeAll(async () => {
  // Thousands of calls from five callers: the rate limits would answer most of them 429 before any handler ran.
  api = await setupApi({ limits: false })
})
afterAll(async () => {
  await api?.close()
})

interface Parameter {
  in: 'path' | 'query' | 'header'
  name: string
  required?: boolean
}
interface Operation {
  parameters?: Parameter[]
  requestBody?: { content?: Record<string, { schema?: { properties?: Record<string, unknown> } }> }
}

const BAD_IDS = ['abc', '0', '-1', '1.5', '2147483648', '1e3', '%00']
const BAD_VALUES = ['%00', 'x'.repeat(2000), '0', '-1', '1.5', '1e400', '%E3%81', '[]', '{}']
const JAPANESE = /[\u3040-\u30ff\u4e00-\u9fff]/
const WHO = [undefined, SUBS.parent, SUBS.teacher, SUBS.owner, SUBS.operator] as const

/** Every path parameter set to a good-looking id (1), so that one bad value at a time is what the route sees. */
const fill = (path: string, values: Record<string, string> = {}) =>
  path.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? (name === 'kind' ? 'front' : '1'))

describe('bad input on every /v1 route', () => {
  it('is 4xx with a code and a Japanese message, never 500, for anyone', async () => {
    const doc = (await api.call('GET', '/v1/openapi.json')).body as {
      paths: Record<string, Record<string, Operation>>
    }
    const tokens = await Promise.all(WHO.map((sub) => (sub ? tokenFor(sub) : Promise.resolve(undefined))))
    const failures: string[] = []
    let sent = 0
    let refused = 0
    /** `freeText`: the value may be one a person meant (a keyword), so a 2xx is an answer too. */
    const send = async (
      method: string,
      path: string,
      init: { body?: unknown; rawBody?: string } = {},
      freeText = false,
    ) => {
      for (const [i, token] of tokens.entries()) {
        const res = await api.call(method, path, { token, ...init })
        sent++
        if (res.status === 400) refused++
        const what = `${method} ${path.slice(0, 80)} ${init.rawBody ?? JSON.stringify(init.body) ?? ''} as ${WHO[i] ?? 'visitor'}`
        if (res.status >= 500 || (res.status < 400 && !freeText)) failures.push(`${res.status} ${what}`)
        else if (res.status >= 400 && (res.status !== 404 || typeof res.body === 'object')) {
          const body = res.body as { code?: unknown; message?: unknown } | undefined
          if (typeof body?.code !== 'string' || !JAPANESE.test(String(body?.message)))
            failures.push(`${res.status} without code or Japanese message: ${what}`)
        }
      }
    }
    for (const [template, ops] of Object.entries(doc.paths)) {
      const path = template.replace(/^\/v1/, '')
      if (!template.startsWith('/v1') || path === '/openapi.json' || path === '/docs') continue
      for (const [method, op] of Object.entries(ops)) {
        const verb = method.toUpperCase()
        const params = op.parameters ?? []
        // A bad id in each path parameter.
        for (const p of params.filter((p) => p.in === 'path' && p.name !== 'kind' && p.name !== 'token'))
          for (const bad of BAD_IDS) await send(verb, `/v1${fill(path, { [p.name]: bad })}`)
        // A bad value in each query parameter (a repeated one too), on GETs: a write's query is never its input.
        if (verb === 'GET')
          for (const p of params.filter((p) => p.in === 'query')) {
            for (const bad of BAD_VALUES) await send(verb, `/v1${fill(path)}?${p.name}=${bad}`, {}, true)
            await send(verb, `/v1${fill(path)}?${p.name}=1&${p.name}=2`, {}, true)
          }
        // A body of the wrong shape: not an object, and each property as an object no schema takes.
        const schema = op.requestBody?.content?.['application/json']?.schema
        if (schema) {
          for (const rawBody of ['[]', '"x"', 'null', '{', '{"a":'])
            await send(verb, `/v1${fill(path, { id: '999999' })}`, { rawBody })
          for (const name of Object.keys(schema.properties ?? {}))
            await send(verb, `/v1${fill(path, { id: '999999' })}`, { body: { [name]: { $: [1] } } })
        }
      }
    }
    expect(failures).toEqual([])
    expect(sent).toBeGreaterThan(2000)
    // Most reached the contract's validation rather than stopping at sign-in or a role check.
    expect(refused).toBeGreaterThan(sent / 3)
  })
})
