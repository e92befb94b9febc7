/**
 * The job runner (issue 14): outbox semantics, retries with backoff, leases that outlive a dead worker, and —
 * on PostgreSQL — two runners on separate connections never running one job twice.
 */
import { spawn } from 'node:child_process'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { eq, sql } from 'drizzle-orm'
import { SMTPServer } from 'smtp-server'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { type Database, openDatabase } from '../../app/db/client'
import { jobs, mails } from '../../app/db/schema'
import { enqueue } from '../../app/jobs/queue.server'
import {
  type Job,
  JobNotDueError,
  MAX_LEASES,
  PermanentJobError,
  startJobRunner,
} from '../../app/jobs/runner.server'
import { closeMailTransport } from '../../app/mail/mailer.server'
import { appJobHandlers } from './support/jobs'
import { testMailSettings } from './support/mail'
import { databaseUrlFor, openTestDatabase, type TestDatabase } from './support/test-db'

const pgUrl = process.env.TEST_DATABASE_URL

let database: TestDatabase
beforeAll(async () => {
  database = await openTestDatabase()
})
afterAll(async () => {
  await database?.close()
})
beforeEach(async () => {
  await database.db.delete(jobs)
})

const rowsOf = () => database.db.select().from(jobs).orderBy(jobs.id)

describe('job runner', () => {
  it('runs a committed job once; a second enqueue with the same key does nothing', async () => {
    const seen: Job[] = []
    await database.db.transaction(async (tx) => {
      await enqueue(tx, 'test.echo', { n: 1 }, { dedupeKey: 'echo-1' })
      await enqueue(tx, 'test.echo', { n: 2 }, { dedupeKey: 'echo-1' })
    })
    const runner = startJobRunner({
      db: database.db,
      autoStart: false,
      handlers: { 'test.echo': async (job) => void seen.push(job) },
    })
    expect(await runner.drain()).toBe(1)
    expect(await runner.drain()).toBe(0)
    expect(seen.map((j) => j.payload)).toEqual([{ n: 1 }])
    const [row] = await rowsOf()
    expect(row?.finishedAt).toBeInstanceOf(Date)
    expect(row?.failed).toBe(false)
    await enqueue(database.db, 'test.echo', { n: 3 }, { dedupeKey: 'echo-1' })
    expect(await runner.drain()).toBe(0)
  })

  it('a rolled-back write leaves no job', async () => {
    await expect(
      database.db.transaction(async (tx) => {
        await enqueue(tx, 'test.echo', { n: 1 })
        throw new Error('the write failed')
      }),
    ).rejects.toThrow('the write failed')
    expect(await rowsOf()).toEqual([])
  })

  it('does not run a job before its time', async () => {
    await enqueue(database.db, 'test.echo', {}, { runAt: new Date(Date.now() + 60_000) })
    let ran = 0
    const runner = startJobRunner({
      db: database.db,
      autoStart: false,
      handlers: { 'test.echo': async () => void ran++ },
    })
    expect(await runner.drain()).toBe(0)
    expect(ran).toBe(0)
  })

  it('retries a failed job later with backoff, then fails it for good after its last attempt', async () => {
    await enqueue(database.db, 'test.flaky', {}, { maxAttempts: 2 })
    let calls = 0
    const runner = startJobRunner({
      db: database.db,
      autoStart: false,
      backoffMs: () => 30_000,
      handlers: {
        'test.flaky': async () => {
          calls++
          throw new Error(`boom ${calls}`)
        },
      },
    })
    const before = Date.now()
    expect(await runner.drain()).toBe(1)
    let [row] = await rowsOf()
    expect(row).toMatchObject({
      attempts: 1,
      finishedAt: null,
      lastError: 'Error: boom 1',
      lockedUntil: null,
    })
    expect(row!.runAt.getTime()).toBeGreaterThanOrEqual(before + 29_000)
    // Not yet due: nothing runs.
    expect(await runner.drain()).toBe(0)
    await database.db.update(jobs).set({ runAt: new Date(Date.now() - 1000) })
    expect(await runner.drain()).toBe(1)
    ;[row] = await rowsOf()
    expect(row).toMatchObject({ attempts: 2, failed: true, lastError: 'Error: boom 2' })
    expect(row!.finishedAt).toBeInstanceOf(Date)
    expect(calls).toBe(2)
  })

  it("a retry is timed by the database's clock: an instance whose clock runs a minute ahead retries a job due again at once", async () => {
    await enqueue(database.db, 'test.flaky', {}, { maxAttempts: 3 })
    let calls = 0
    const runner = startJobRunner({
      db: database.db,
      autoStart: false,
      backoffMs: () => 0,
      handlers: {
        'test.flaky': async () => {
          calls++
          throw new Error(`boom ${calls}`)
        },
      },
    })
    // Only Date is moved. PostgreSQL keeps the real time (PGlite's clock follows Date: there this shows nothing).
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 60_000 })
    try {
      expect(await runner.drain()).toBe(3)
    } finally {
      vi.useRealTimers()
    }
    const [row] = await rowsOf()
    expect(row).toMatchObject({ attempts: 3, failed: true, lastError: 'Error: boom 3' })
    expect(calls).toBe(3)
  })

  it("a job its handler finds not due yet (a clock behind the database's) runs again then; the early attempts do not count", async () => {
    await enqueue(database.db, 'test.early', {}, { maxAttempts: 1 })
    const at = new Date(Date.now() + 30_000)
    const answers: (Date | undefined)[] = [at, new Date(0), undefined]
    const runner = startJobRunner({
      db: database.db,
      autoStart: false,
      handlers: {
        'test.early': async () => {
          const notBefore = answers.shift()
          if (notBefore) throw new JobNotDueError(notBefore)
        },
      },
    })
    expect(await runner.drain()).toBe(1)
    let [row] = await rowsOf()
    expect(row).toMatchObject({
      attempts: 0,
      finishedAt: null,
      failed: false,
      lastError: null,
      lockedUntil: null,
    })
    expect(row!.runAt.getTime()).toBe(at.getTime())
    expect(await runner.drain()).toBe(0)
    // A handler whose clock is far behind: again no sooner than a second later, not in a tight loop.
    await database.db.update(jobs).set({ runAt: new Date(Date.now() - 1000) })
    const before = Date.now()
    expect(await runner.drain()).toBe(1)
    ;[row] = await rowsOf()
    expect(row!.runAt.getTime()).toBeGreaterThanOrEqual(before + 900)
    expect(await runner.drain()).toBe(0)
    // Its time comes: it runs and finishes, its one attempt still its own.
    await database.db.update(jobs).set({ runAt: new Date(Date.now() - 1000) })
    expect(await runner.drain()).toBe(1)
    ;[row] = await rowsOf()
    expect(row).toMatchObject({ attempts: 1, failed: false })
    expect(row!.finishedAt).toBeInstanceOf(Date)
    expect(answers).toEqual([])
  })

  it('fails a job of an unknown kind, or one that says so, without retrying', async () => {
    await enqueue(database.db, 'test.nobody', {})
    await enqueue(database.db, 'test.bad', {})
    const runner = startJobRunner({
      db: database.db,
      autoStart: false,
      handlers: {
        'test.bad': async () => {
          throw new PermanentJobError('bad payload')
        },
      },
    })
    await runner.drain()
    const rows = await rowsOf()
    expect(rows.map((r) => [r.kind, r.attempts, r.failed])).toEqual([
      ['test.nobody', 1, true],
      ['test.bad', 1, true],
    ])
  })

  it('takes over a job whose worker died (its lease ran out), but not one whose lease still holds', async () => {
    await enqueue(database.db, 'test.echo', { n: 1 })
    await enqueue(database.db, 'test.echo', { n: 2 })
    const [first, second] = await rowsOf()
    // Two jobs claimed by a worker that was killed: one lease has run out, one has not.
    await database.db
      .update(jobs)
      .set({ lockedBy: 'dead', lockedUntil: new Date(Date.now() - 1000), attempts: 1 })
      .where(eq(jobs.id, first!.id))
    await database.db
      .update(jobs)
      .set({ lockedBy: 'alive', lockedUntil: new Date(Date.now() + 60_000), attempts: 1 })
      .where(eq(jobs.id, second!.id))
    const seen: unknown[] = []
    const runner = startJobRunner({
      db: database.db,
      autoStart: false,
      handlers: { 'test.echo': async (job) => void seen.push(job.payload) },
    })
    expect(await runner.drain()).toBe(1)
    expect(seen).toEqual([{ n: 1 }])
    const [taken] = await database.db.select().from(jobs).where(eq(jobs.id, first!.id))
    expect(taken).toMatchObject({ attempts: 2, lockedBy: runner.workerId, failed: false })
  })

  it('a job whose runner died during its last attempt is failed, not claimed again (one that kills its process)', async () => {
    await enqueue(database.db, 'test.echo', { n: 1 }, { maxAttempts: 3 })
    await enqueue(database.db, 'test.echo', { n: 2 }, { maxAttempts: 3 })
    const [last, earlier] = await rowsOf()
    // Both claimed by a worker that died: one in its third and last attempt, one in its second.
    await database.db
      .update(jobs)
      .set({ lockedBy: 'dead', lockedUntil: new Date(Date.now() - 1000), attempts: 3 })
      .where(eq(jobs.id, last!.id))
    await database.db
      .update(jobs)
      .set({ lockedBy: 'dead', lockedUntil: new Date(Date.now() - 1000), attempts: 2 })
      .where(eq(jobs.id, earlier!.id))
    const seen: unknown[] = []
    const runner = startJobRunner({
      db: database.db,
      autoStart: false,
      handlers: { 'test.echo': async (job) => void seen.push(job.payload) },
    })
    expect(await runner.drain()).toBe(1)
    expect(seen).toEqual([{ n: 2 }])
    const [failed] = await database.db.select().from(jobs).where(eq(jobs.id, last!.id))
    expect(failed).toMatchObject({ attempts: 3, failed: true, lockedUntil: null })
    expect(failed!.finishedAt).not.toBeNull()
    expect(failed!.lastError).toContain('stopped')
  })

  it('a job running longer than its lease stays its runner’s (renewed): another runner does not run it again', async () => {
    await enqueue(database.db, 'test.slow', { n: 1 })
    let runs = 0
    const handlers = {
      // A mail whose SMTP server takes longer than the lease to answer.
      'test.slow': async () => {
        runs++
        await new Promise((r) => setTimeout(r, 1500))
      },
    }
    const a = startJobRunner({ db: database.db, autoStart: false, leaseMs: 600, handlers })
    const b = startJobRunner({ db: database.db, autoStart: false, leaseMs: 600, handlers })
    const first = a.drain()
    // Past the first lease (600 ms) while the handler still runs.
    await new Promise((r) => setTimeout(r, 1000))
    expect(await b.drain()).toBe(0)
    expect(await first).toBe(1)
    expect(runs).toBe(1)
    const [row] = await rowsOf()
    expect(row).toMatchObject({ attempts: 1, lockedBy: a.workerId, lockedUntil: null, failed: false })
    expect(row!.finishedAt).not.toBeNull()
  })

  it('runs on its own: a job enqueued while it polls is picked up, and stop() waits for the one in flight', async () => {
    let release!: () => void
    const gate = new Promise<void>((r) => {
      release = r
    })
    let finished = false
    const runner = startJobRunner({
      db: database.db,
      pollMs: 20,
      handlers: {
        'test.slow': async () => {
          await gate
          finished = true
        },
      },
    })
    await enqueue(database.db, 'test.slow', {})
    for (let i = 0; i < 200 && !(await rowsOf())[0]?.lockedBy; i++)
      await new Promise((r) => setTimeout(r, 10))
    const stopping = runner.stop(5000)
    setTimeout(release, 50)
    await stopping
    expect(finished).toBe(true)
    const [row] = await rowsOf()
    expect(row?.finishedAt).toBeInstanceOf(Date)
  })

  it('queues a recurring job once per period, whatever the number of runners', async () => {
    const ran: number[] = []
    const handlers = { 'test.tick': async (job: Job) => void ran.push(job.payload.period as number) }
    const recurring = [{ kind: 'test.tick', everyMs: 3_600_000 }]
    const a = startJobRunner({ db: database.db, autoStart: false, handlers, recurring })
    const b = startJobRunner({ db: database.db, autoStart: false, handlers, recurring })
    await Promise.all([a.drain(), b.drain()])
    expect(ran).toEqual([Math.floor(Date.now() / 3_600_000)])
  })
})

describe('a job that never ends', () => {
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
  const hangingOnce = () => {
    let release!: () => void
    const gate = new Promise<void>((r) => {
      release = r
    })
    const state = { runs: 0, release }
    const handlers = {
      'test.hang': async () => {
        state.runs++
        if (state.runs === 1) await gate
      },
    }
    return { state, handlers }
  }

  it(`is let go after ${MAX_LEASES} leases: another runner takes it then, not before`, async () => {
    await enqueue(database.db, 'test.hang', {})
    const { state, handlers } = hangingOnce()
    // Long enough that a renewal held up on a loaded machine (it renews every third of a lease) does not let go.
    const leaseMs = 2000
    const a = startJobRunner({ db: database.db, autoStart: false, leaseMs, handlers })
    const b = startJobRunner({ db: database.db, autoStart: false, leaseMs, handlers })
    const started = Date.now()
    const first = a.drain()
    try {
      let takenAfter = 0
      while (Date.now() - started < leaseMs * MAX_LEASES * 2.5) {
        await sleep(100)
        if ((await b.drain()) > 0) {
          takenAfter = Date.now() - started
          break
        }
      }
      // Renewed every third of a lease for ten leases (~20 s), then let go: the lease runs out and b takes it.
      expect(takenAfter).toBeGreaterThanOrEqual(leaseMs * (MAX_LEASES - 1))
      expect(state.runs).toBe(2)
    } finally {
      state.release()
      await first
    }
  })

  it('stop() lets go of the jobs still running after its grace: their leases are no longer renewed', async () => {
    await enqueue(database.db, 'test.hang', {})
    const { state, handlers } = hangingOnce()
    const leaseMs = 300
    const a = startJobRunner({ db: database.db, pollMs: 20, leaseMs, handlers })
    for (let i = 0; i < 200 && state.runs === 0; i++) await sleep(10)
    expect(state.runs).toBe(1)
    await a.stop(50)
    const b = startJobRunner({ db: database.db, autoStart: false, leaseMs, handlers })
    try {
      // Within a few leases (a renewal in flight at stop() may still land once).
      let taken = 0
      for (let i = 0; i < 30 && taken === 0; i++) {
        await sleep(100)
        taken = await b.drain()
      }
      expect(taken).toBe(1)
      expect(state.runs).toBe(2)
    } finally {
      state.release()
    }
  })
})

describe('recurring jobs while every slot is busy', () => {
  it('each period is still queued, to run when a slot frees', async () => {
    let release!: () => void
    const gate = new Promise<void>((r) => {
      release = r
    })
    const ran: number[] = []
    const runner = startJobRunner({
      db: database.db,
      pollMs: 20,
      concurrency: 1,
      handlers: {
        'test.slow': () => gate,
        'test.tick': async (job: Job) => void ran.push(job.payload.period as number),
      },
      recurring: [{ kind: 'test.tick', everyMs: 1000 }],
    })
    try {
      await enqueue(database.db, 'test.slow', {}, { runAt: new Date(Date.now() - 60_000) })
      // The slow job holds the only slot (it was due first); three periods start meanwhile.
      const first = Math.floor(Date.now() / 1000)
      await new Promise((r) => setTimeout(r, 2500))
      const queued = (await rowsOf())
        .filter((j) => j.kind === 'test.tick')
        .map((j) => (j.payload as { period: number }).period)
      expect(queued.length, JSON.stringify(queued)).toBeGreaterThanOrEqual(2)
      expect(queued).toContain(first + 1)
      expect(ran.filter((p) => p > first)).toEqual([])
      release()
      for (let i = 0; i < 200 && ran.length < queued.length; i++) await new Promise((r) => setTimeout(r, 10))
      expect(ran).toEqual(expect.arrayContaining(queued))
    } finally {
      release()
      await runner.stop(5000)
    }
  })
})

describe.skipIf(!pgUrl)('two runners on PostgreSQL', () => {
  let other: Database
  beforeAll(async () => {
    const rows = (await database.db.execute(sql`select current_database() as name`)) as unknown as {
      name: string
    }[]
    other = await openDatabase({ databaseUrl: databaseUrlFor(pgUrl!, rows[0]!.name), migrate: false })
  })
  afterAll(async () => {
    await other?.close()
  })

  it('never run one job twice: 300 jobs, two runners of 4 slots each, every job exactly once', async () => {
    const N = 300
    await database.db
      .insert(jobs)
      .values(Array.from({ length: N }, (_, i) => ({ kind: 'test.count', payload: { i } })))
    const seen = new Map<number, string[]>()
    const handler = (who: string) => async (job: Job) => {
      seen.set(job.id, [...(seen.get(job.id) ?? []), who])
      await new Promise((r) => setTimeout(r, Math.random() * 3))
    }
    const a = startJobRunner({ db: database.db, autoStart: false, handlers: { 'test.count': handler('a') } })
    const b = startJobRunner({ db: other.db, autoStart: false, handlers: { 'test.count': handler('b') } })
    const [ranA, ranB] = await Promise.all([a.drain(), b.drain()])
    expect(ranA + ranB).toBe(N)
    expect(seen.size).toBe(N)
    expect([...seen.values()].filter((w) => w.length !== 1)).toEqual([])
    // Both did a share of the work.
    expect(ranA).toBeGreaterThan(0)
    expect(ranB).toBeGreaterThan(0)
    const [left] = (await database.db.execute(
      sql`select count(*)::int as n from jobs where finished_at is null`,
    )) as unknown as { n: number }[]
    expect(left!.n).toBe(0)
  })
})

describe.skipIf(!pgUrl)('a worker killed mid-job (kill -9)', () => {
  it('the mail it was sending is sent exactly once, by the next worker', async () => {
    const rows = (await database.db.execute(sql`select current_database() as name`)) as unknown as {
      name: string
    }[]
    const url = databaseUrlFor(pgUrl!, rows[0]!.name)
    // An SMTP server that holds the first message's DATA until its client dies, then accepts the rest.
    const accepted: string[] = []
    let dataStarted!: () => void
    const firstData = new Promise<void>((r) => {
      dataStarted = r
    })
    let sessions = 0
    const smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, _session, callback) {
        const chunks: Buffer[] = []
        stream.on('data', (c: Buffer) => chunks.push(c))
        stream.on('end', () => {
          sessions++
          if (sessions === 1) {
            dataStarted()
            return // never answered: the worker is killed while it waits
          }
          accepted.push(Buffer.concat(chunks).toString('utf8'))
          callback()
        })
      },
    })
    await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', r))
    const smtpUrl = `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`
    const [member] = (await database.db.execute(
      sql`select id, email from users where email is not null limit 1`,
    )) as unknown as {
      id: number
      email: string
    }[]
    await enqueue(database.db, 'mail.send', {
      messageId: '<kill-9-test@localhost>',
      to: member!.email,
      userId: member!.id,
      template: 'new_message',
      props: { sender: 'はなこママ', roomUrl: 'http://localhost:3000/message?room=1' },
    })

    const worker = spawn(
      process.execPath,
      ['--import', 'tsx', fileURLToPath(new URL('./support/job-worker.ts', import.meta.url))],
      {
        env: { ...process.env, WORKER_DATABASE_URL: url, WORKER_SMTP_URL: smtpUrl, WORKER_LEASE_MS: '1500' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    )
    const exited = new Promise((r) => worker.on('exit', r))
    try {
      await Promise.race([
        firstData,
        new Promise((_, reject) => setTimeout(() => reject(new Error('the worker never sent')), 30_000)),
      ])
      worker.kill('SIGKILL')
      await exited
      const [held] = await database.db.select().from(jobs)
      expect(held).toMatchObject({ lockedBy: 'child', finishedAt: null, attempts: 1 })
      expect(await database.db.select().from(mails)).toEqual([]) // not recorded as sent

      // The next worker takes the job over once the dead one's lease has run out.
      const next = startJobRunner({
        db: database.db,
        autoStart: false,
        handlers: appJobHandlers({
          mail: testMailSettings(smtpUrl),
        }),
      })
      expect(await next.drain()).toBe(0) // the lease still holds
      await new Promise((r) => setTimeout(r, 1600))
      expect(await next.drain()).toBe(1)
      await next.drain()
      expect(accepted).toHaveLength(1)
      expect(accepted[0]).toContain('Message-ID: <kill-9-test@localhost>')
      const [done] = await database.db.select().from(jobs)
      expect(done).toMatchObject({ attempts: 2, failed: false, lockedBy: next.workerId })
      expect(done!.finishedAt).toBeInstanceOf(Date)
      expect(await database.db.select({ id: mails.id }).from(mails)).toHaveLength(1)
    } finally {
      worker.kill('SIGKILL')
      closeMailTransport() // its pooled connection would hold the server's close for its idle time
      await new Promise<void>((r) => smtp.close(() => r()))
    }
  })
})

describe("the app's runner", () => {
  it('has a handler for every kind it queues on a period and every kind the app enqueues; both image sweeps recur', async () => {
    const { readdirSync, readFileSync } = await import('node:fs')
    const { join } = await import('node:path')
    const { backgroundJobs } = await import('../../app/notifications/runtime.server')
    const { AVATAR_SWEEP_KIND } = await import('../../app/server/avatar-images.server')
    const { CLASS_IMAGE_SWEEP_KIND } = await import('../../app/server/class-images.server')
    const { AVATAR_RELEASE_KIND } = await import('../../app/api/services/avatar-images')
    const { CLASS_IMAGE_RELEASE_KIND } = await import('../../app/api/services/class-images')
    const { RUBY_FILL_KIND } = await import('../../app/jobs/ruby-fill.server')
    const { VERIFICATION_UPLOAD_CHECK_KIND } = await import('../../app/server/verification-documents.server')
    const { handlers, recurring = [] } = backgroundJobs()
    const kinds = new Set(Object.keys(handlers))
    expect(recurring.map((r) => r.kind).filter((k) => !kinds.has(k))).toEqual([])
    expect(recurring.map((r) => r.kind)).toEqual(
      expect.arrayContaining([AVATAR_SWEEP_KIND, CLASS_IMAGE_SWEEP_KIND]),
    )
    // Every `enqueue(tx, kind, …)` in the app's source: a literal kind, or one of these constants.
    const constants: Record<string, string> = {
      AVATAR_RELEASE_KIND,
      CLASS_IMAGE_RELEASE_KIND,
      RUBY_FILL_KIND,
      VERIFICATION_UPLOAD_CHECK_KIND,
    }
    const root = fileURLToPath(new URL('../../app', import.meta.url))
    const files = (readdirSync(root, { recursive: true }) as string[]).filter(
      (f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f),
    )
    const queued = new Set<string>()
    for (const file of files) {
      const source = readFileSync(join(root, file), 'utf8')
      // Calls of the queue's enqueue (not its definition, not a stream controller's method).
      const calls = source.match(/(?<![.\w]|function )enqueue\(/g)?.length ?? 0
      const read = [
        ...source.matchAll(
          /(?<![.\w]|function )enqueue\(\s*[^,()]+(?:\([^()]*\))?\s*,\s*(?:'([\w.]+)'|([A-Z_]+)|(r\.kind))/g,
        ),
      ]
      expect(read.length, `${file}: an enqueue( call this test cannot read`).toBe(calls)
      for (const m of read) {
        // The runner queuing a recurring kind: checked against the handlers above.
        if (m[3]) continue
        const kind = m[1] ?? constants[m[2]!]
        expect(kind, `${file}: add ${m[2]} to this test's constants`).toBeDefined()
        queued.add(kind!)
      }
    }
    expect(queued.size).toBeGreaterThan(15)
    expect([...queued].filter((k) => !kinds.has(k))).toEqual([])
  })
})
