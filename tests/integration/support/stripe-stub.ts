import { randomBytes } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * A local HTTP stand-in for the part of Stripe's API the adapter uses (Payment Intents and Refunds), so that the
 * official SDK runs end to end with no network. It keeps Stripe's idempotency rule: a repeated write with the same
 * Idempotency-Key answers the first result.
 */
export interface StripeStub {
  port: number
  intents: Map<string, Intent>
  refunds: { id: string; payment_intent: string; amount: number; idempotencyKey: string | undefined }[]
  requests: { method: string; path: string; idempotencyKey: string | undefined }[]
  /** What Stripe.js does in the browser: the card is accepted (or refused) for this intent. */
  pay(id: string, outcome?: 'succeeded' | { decline_code: string }): void
  /** The next `n` calls answer 500 (the provider is having trouble). */
  failNext(n: number): void
  close(): Promise<void>
}

interface Intent {
  id: string
  object: 'payment_intent'
  amount: number
  currency: string
  status: string
  client_secret: string
  metadata: Record<string, string>
  /** What the create call allowed (`allowed_payment_method_types[n]`); empty when it let Stripe choose. */
  allowed_payment_method_types: string[]
  last_payment_error: { code: string; decline_code?: string; message: string } | null
}

function form(body: string): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [k, v] of new URLSearchParams(body)) out[k] = v
  return out
}

export async function startStripeStub(): Promise<StripeStub> {
  const intents = new Map<string, Intent>()
  const refunds: StripeStub['refunds'] = []
  const requests: StripeStub['requests'] = []
  const replies = new Map<string, { status: number; body: unknown }>()
  let failures = 0

  const server: Server = createServer((req, res) => {
    let raw = ''
    req.on('data', (c) => {
      raw += c
    })
    req.on('end', () => {
      const key = req.headers['idempotency-key'] as string | undefined
      const path = (req.url ?? '').split('?')[0]!
      requests.push({ method: req.method ?? '', path, idempotencyKey: key })
      const send = (status: number, body: unknown) => {
        if (key && req.method === 'POST') replies.set(`${path}|${key}`, { status, body })
        res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${Date.now()}` })
        res.end(JSON.stringify(body))
      }
      if (failures > 0) {
        failures--
        res.writeHead(500, { 'content-type': 'application/json' })
        res.end(JSON.stringify({ error: { type: 'api_error', message: 'stub failure' } }))
        return
      }
      const replay = key && req.method === 'POST' ? replies.get(`${path}|${key}`) : undefined
      if (replay) {
        res.writeHead(replay.status, { 'content-type': 'application/json', 'idempotent-replayed': 'true' })
        res.end(JSON.stringify(replay.body))
        return
      }
      const params = form(raw)
      const intentPath = /^\/v1\/payment_intents\/([^/]+)$/.exec(path)
      const cancelPath = /^\/v1\/payment_intents\/([^/]+)\/cancel$/.exec(path)
      if (req.method === 'POST' && path === '/v1/payment_intents') {
        const id = `pi_${randomBytes(8).toString('hex')}`
        const metadata: Record<string, string> = {}
        for (const [k, v] of Object.entries(params)) {
          const mk = /^metadata\[(.+)\]$/.exec(k)
          if (mk) metadata[mk[1]!] = v
        }
        const intent: Intent = {
          id,
          object: 'payment_intent',
          amount: Number(params.amount),
          currency: params.currency ?? 'jpy',
          status: 'requires_payment_method',
          client_secret: `${id}_secret_${randomBytes(6).toString('hex')}`,
          metadata,
          allowed_payment_method_types: Object.entries(params)
            .filter(([k]) => /^allowed_payment_method_types\[\d+\]$/.test(k))
            .map(([, v]) => v),
          last_payment_error: null,
        }
        intents.set(id, intent)
        return send(200, intent)
      }
      if (intentPath && req.method === 'GET') {
        const intent = intents.get(intentPath[1]!)
        return intent ? send(200, intent) : send(404, { error: { type: 'invalid_request_error' } })
      }
      if (cancelPath && req.method === 'POST') {
        const intent = intents.get(cancelPath[1]!)
        if (!intent) return send(404, { error: { type: 'invalid_request_error' } })
        if (intent.status === 'succeeded')
          return send(400, { error: { type: 'invalid_request_error', message: 'already succeeded' } })
        intent.status = 'canceled'
        return send(200, intent)
      }
      if (req.method === 'POST' && path === '/v1/refunds') {
        const intent = intents.get(params.payment_intent ?? '')
        if (intent?.status !== 'succeeded')
          return send(400, { error: { type: 'invalid_request_error', message: 'not paid' } })
        const refund = {
          id: `re_${randomBytes(8).toString('hex')}`,
          object: 'refund',
          payment_intent: intent.id,
          amount: Number(params.amount ?? intent.amount),
          status: 'succeeded',
        }
        refunds.push({ ...refund, idempotencyKey: key })
        return send(200, refund)
      }
      send(404, { error: { type: 'invalid_request_error', message: `no route ${req.method} ${path}` } })
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  return {
    port: (server.address() as AddressInfo).port,
    intents,
    refunds,
    requests,
    pay(id, outcome = 'succeeded') {
      const intent = intents.get(id)
      if (!intent) throw new Error(`no intent ${id}`)
      if (outcome === 'succeeded') {
        intent.status = 'succeeded'
        intent.last_payment_error = null
      } else {
        intent.status = 'requires_payment_method'
        intent.last_payment_error = {
          code: 'card_declined',
          decline_code: outcome.decline_code,
          message: 'Your card was declined.',
        }
      }
    },
    failNext(n) {
      failures = n
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  }
}
