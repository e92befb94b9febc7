/**
 * `npm run bench:notify` (issue 14), on PostgreSQL (BENCH_DATABASE_URL or TEST_DATABASE_URL; a scratch database is
 * created and dropped):
 * 1. mails per second through the job runner to a local SMTP server (smtp-server in this process): BENCH_MAILS
 *    `mail.send` jobs queued at once, one runner, rendered with the real templates and sent with nodemailer;
 * 2. the time from a write on instance A (a message sent through the service, in its transaction) to the live event
 *    arriving on instance B's subscription (LISTEN/NOTIFY on connections of its own): the real path — the outbox
 *    job, A's runner woken by NOTIFY, the handler, publish, B. BENCH_EVENTS writes, one at a time.
 * Every connection goes to this machine's own servers; every loop is bounded.
 */
import { randomUUID } from 'node:crypto'
import type { AddressInfo } from 'node:net'
import { and, eq, ne, sql } from 'drizzle-orm'
import postgres from 'postgres'
import { SMTPServer } from 'smtp-server'
import { sendMessage } from '../app/api/services/rooms'
import { openDatabase } from '../app/db/client'
import { createPostgresEventBus } from '../app/db/events'
import { configuredReceiptIssuer } from '../app/db/receipt-issuers'
import { jobs, roomMembers } from '../app/db/schema'
import { seedDemoContent } from '../app/db/seed'
import { startJobRunner } from '../app/jobs/runner.server'
import { closeMailTransport } from '../app/mail/mailer.server'
import { notificationHandlers } from '../app/notifications/handlers.server'
import {
  decodeMemberEvent,
  MEMBER_EVENTS_CHANNEL,
  publishMemberEventOn,
} from '../app/server/live-events.server'

const serverUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL
const MAILS = Number(process.env.BENCH_MAILS ?? 2000)
const EVENTS = Number(process.env.BENCH_EVENTS ?? 200)

const pct = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN
}
const round = (n: number) => Math.round(n * 10) / 10

async function main() {
  if (!serverUrl) {
    console.log('bench:notify skipped: set BENCH_DATABASE_URL or TEST_DATABASE_URL (PostgreSQL)')
    return
  }
  const name = `manabi_bench_notify_${randomUUID().slice(0, 8)}`
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} })
  await admin.unsafe(`create database "${name}"`)
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  const a = await openDatabase({ databaseUrl: url.toString(), statementTimeoutMs: 0 })
  const b = await openDatabase({ databaseUrl: url.toString(), migrate: false })
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      stream.on('data', () => {})
      stream.on('end', () => {
        delivered++
        callback()
      })
    },
  })
  let delivered = 0
  await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', r))
  const smtpUrl = `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`
  const mail = {
    siteName: 'まなびのたね',
    siteOrigin: 'http://localhost:3000',
    from: 'まなびのたね <no-reply@manabi.example>',
    unsubscribeSecret: 'bench-unsubscribe-secret-0123456789abcdef',
    smtpUrl,
  }
  // Receipt mails of payments with no issuer recorded name this one (the demo's, unregistered).
  const issuer = () => configuredReceiptIssuer({ invoiceRegistrationNumber: undefined })
  const busA = createPostgresEventBus(url.toString())
  const busB = createPostgresEventBus(url.toString())
  try {
    await seedDemoContent(a.db, { issuer: 'http://localhost:3000/idp', now: new Date() })

    // 1. Mails per second.
    await a.db.insert(jobs).values(
      Array.from({ length: MAILS }, (_, i) => ({
        kind: 'mail.send',
        payload: {
          messageId: `<bench-${i}@localhost>`,
          to: `member${i % 50}@manabi.example`,
          template: 'new_message',
          props: { sender: 'けんた先生', roomUrl: 'http://localhost:3000/message?room=1' },
        },
      })),
    )
    const runner = startJobRunner({
      db: a.db,
      autoStart: false,
      concurrency: Number(process.env.BENCH_MAIL_CONCURRENCY ?? 8),
      handlers: notificationHandlers({ mail, issuer }),
    })
    const started = performance.now()
    const ran = await runner.drain()
    const seconds = (performance.now() - started) / 1000
    const [failed] = (await a.db.execute(
      sql`select count(*)::int as n from jobs where failed`,
    )) as unknown as { n: number }[]

    // 2. Write → event on another instance.
    const [member] = await a.db
      .select({ roomId: roomMembers.roomId, userId: roomMembers.userId })
      .from(roomMembers)
      .limit(1)
    const [other] = await a.db
      .select({ userId: roomMembers.userId })
      .from(roomMembers)
      .where(and(eq(roomMembers.roomId, member!.roomId), ne(roomMembers.userId, member!.userId)))
    let arrived: (() => void) | undefined
    await busB.subscribe(MEMBER_EVENTS_CHANNEL, (payload) => {
      const event = decodeMemberEvent(payload)
      if (event?.u.includes(other!.userId)) arrived?.()
    })
    const live = startJobRunner({
      db: a.db,
      bus: busA,
      pollMs: 1000,
      handlers: notificationHandlers({
        mail: { ...mail, smtpUrl: undefined },
        issuer,
        publish: (ids, type) => publishMemberEventOn(busA, ids, type),
      }),
    })
    await new Promise((r) => setTimeout(r, 300)) // A's LISTEN is in place
    const latencies: number[] = []
    for (let i = 0; i < EVENTS; i++) {
      const got = new Promise<void>((resolve, reject) => {
        arrived = resolve
        setTimeout(() => reject(new Error('no event within 5 s')), 5000).unref()
      })
      const t0 = performance.now()
      await sendMessage(a.db, member!.userId, member!.roomId, `ベンチ ${i}`, new Date())
      await got
      latencies.push(performance.now() - t0)
    }
    await live.stop(5000)

    console.log('\nNotifications (PostgreSQL; goals: ≥ 200 mails/s, event p99 ≤ 200 ms)')
    console.table([
      {
        what: 'mails through the job runner to local SMTP',
        count: ran,
        seconds: round(seconds),
        'mails/s': round(ran / seconds),
        delivered,
        failed: failed!.n,
      },
    ])
    console.table([
      {
        what: 'write on A → event on B',
        count: latencies.length,
        p50ms: round(pct(latencies, 50)),
        p99ms: round(pct(latencies, 99)),
        maxms: round(Math.max(...latencies)),
      },
    ])
  } finally {
    await busA.close()
    await busB.close()
    closeMailTransport()
    await new Promise<void>((r) => smtp.close(() => r()))
    await b.close()
    await a.close()
    await admin.unsafe(`drop database if exists "${name}" with (force)`)
    await admin.end()
  }
}

await main()
