import { randomBytes } from 'node:crypto'
import { hostname } from 'node:os'
import { and, eq, isNull, sql } from 'drizzle-orm'
import type { Db, Tx } from '../db/client'
import type { EventBus, Unsubscribe } from '../db/events'
import { withoutQueryParams } from '../db/log-safe'
import { rowsOf } from '../db/rows'
import { jobs } from '../db/schema'
import { logger } from '../server/logger.server'
import { enqueue, JOBS_CHANNEL } from './queue.server'

/**
 * The job runner every instance starts (docs/decisions/0017). It claims due jobs with `FOR UPDATE SKIP LOCKED`
 * under a lease: two runners never hold one job at once, and a runner killed mid-job (kill -9) lets it go when the
 * lease runs out, so another runs it again. Handlers are written to be safe to run again: what they write is keyed
 * by the job (dedupe keys, the mail's Message-ID), so a job re-run after a crash has its effect once.
 */

export interface Job {
  id: number
  kind: string
  payload: Record<string, unknown>
  /** 1 on the first run. */
  attempts: number
}

export type JobHandler = (job: Job, ctx: { db: Db }) => Promise<void>

/** A job that must not be tried again (bad payload, unknown kind): finished as failed at once. */
export class PermanentJobError extends Error {
  override name = 'PermanentJobError'
}

/**
 * A job whose moment has not come by the handler's clock: runners claim by the database's clock, and an instance's
 * clock may be behind it. The job runs again at `runAt` (at the earliest a second from now, so a clock that is far
 * behind does not make the runner spin), and the attempt does not count.
 */
export class JobNotDueError extends Error {
  override name = 'JobNotDueError'
  constructor(readonly runAt: Date) {
    super(`not due before ${runAt.toISOString()}`)
  }
}

export interface RecurringJob {
  kind: string
  everyMs: number
}

export interface JobRunnerOptions {
  db: Db
  handlers: Record<string, JobHandler>
  /** Wakes the runner when a job is committed (PostgreSQL NOTIFY). Without it the runner only polls. */
  bus?: EventBus
  /** Jobs run at once by this runner. */
  concurrency?: number
  /** Longest wait between two looks for due jobs. */
  pollMs?: number
  /**
   * How long a claimed job is this runner's; a runner that dies lets it go after this. While its handler runs the
   * lease is renewed (every third of it), for at most MAX_LEASES leases: a slow job is not taken twice, a hung one
   * is let go.
   */
  leaseMs?: number
  /** Wait before attempt n+1 (default: 2ⁿ s with jitter, at most an hour). */
  backoffMs?: (attempts: number) => number
  /** Enqueued once per period across all instances (deduplicated by the period's number). */
  recurring?: RecurringJob[]
  workerId?: string
  /** false: no background loop; the caller runs jobs with drain() (tests). */
  autoStart?: boolean
}

export interface JobRunner {
  readonly workerId: string
  /** Claims and runs due jobs until none is left; resolves with how many ran. For tests and scripts. */
  drain(): Promise<number>
  /** Stops claiming, waits for the jobs in flight (at most `graceMs`). */
  stop(graceMs?: number): Promise<void>
}

/** Leases one run of a job may hold: a handler still running after this many is taken as hung. */
export const MAX_LEASES = 10

const defaultBackoff = (attempts: number) =>
  Math.min(3_600_000, 1000 * 2 ** attempts) * (0.75 + Math.random() * 0.5)

export function startJobRunner(options: JobRunnerOptions): JobRunner {
  const { db, handlers } = options
  const concurrency = options.concurrency ?? 4
  const pollMs = options.pollMs ?? 1000
  const leaseMs = options.leaseMs ?? 60_000
  const backoffMs = options.backoffMs ?? defaultBackoff
  for (const r of options.recurring ?? [])
    if (!(r.everyMs >= 1000)) throw new RangeError(`recurring job ${r.kind}: everyMs must be at least 1000`)
  const workerId = options.workerId ?? `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`
  const inFlight = new Set<Promise<void>>()
  let stopping = false
  let timer: NodeJS.Timeout | undefined
  let wake: (() => void) | undefined
  /** A wake-up that came while the loop was busy: the next wait returns at once instead of missing it. */
  let woken = false
  const nudge = () => {
    woken = true
    wake?.()
  }
  let unsubscribe: Unsubscribe | undefined

  /**
   * The runner's own bookkeeping (claiming, finishing) commits without waiting for the disk: a claim lost in a crash
   * is taken again when its lease runs out, a lost finish runs the job again, and handlers are safe to re-run (the
   * mail's own row is written with a normal commit). Half the fsyncs per mail.
   */
  const bookkeeping = <T>(work: (tx: Tx) => Promise<T>) =>
    db.transaction(async (tx) => {
      await tx.execute(sql`set local synchronous_commit = off`)
      return work(tx)
    })

  let lastAbandonedSweep = 0
  async function claim(limit: number): Promise<Job[]> {
    const result = await bookkeeping(async (tx) => {
      // A job whose every attempt ended with its runner gone (killed, out of memory: no error was ever recorded)
      // is not claimed again past its last attempt. Claimed forever, one that kills its process would take an
      // instance down once a lease, for good. Looked for once a lease, not at every claim (a mail burst claims
      // often); `locked_by` cleared, so that a runner still finishing it late records nothing over this.
      if (Date.now() - lastAbandonedSweep >= leaseMs) {
        lastAbandonedSweep = Date.now()
        await tx.execute(sql`
          update ${jobs} set finished_at = now(), failed = true, locked_until = null, locked_by = null,
            last_error = 'its runner stopped during each of its attempts'
          where id in (
            select id from ${jobs}
            where finished_at is null and attempts >= max_attempts and locked_until < now()
            limit 100
            for update skip locked
          )`)
      }
      return tx.execute<{ id: number; kind: string; payload: unknown; attempts: number }>(sql`
      update ${jobs} set
        locked_until = now() + make_interval(secs => ${leaseMs / 1000}),
        locked_by = ${workerId},
        attempts = attempts + 1
      where id in (
        select id from ${jobs}
        where finished_at is null and run_at <= now() and (locked_until is null or locked_until < now())
          and attempts < max_attempts
        order by run_at, id
        limit ${limit}
        for update skip locked
      )
      returning id, kind, payload, attempts`)
    })
    return rowsOf<Job>(result).map((r) => ({ ...r, id: Number(r.id), attempts: Number(r.attempts) }))
  }

  async function finish(job: Job, error?: unknown) {
    const mine = and(eq(jobs.id, job.id), eq(jobs.lockedBy, workerId))
    if (error === undefined) {
      await db
        .update(jobs)
        .set({ finishedAt: sql`now()`, failed: false, lockedUntil: null, lastError: null })
        .where(mine)
      return
    }
    if (error instanceof JobNotDueError) {
      await db
        .update(jobs)
        .set({
          runAt: sql`greatest(${error.runAt.toISOString()}::timestamptz, now() + interval '1 second')`,
          attempts: sql`${jobs.attempts} - 1`,
          lockedUntil: null,
        })
        .where(mine)
      return
    }
    // Bound values of a failed statement (addresses, tokens) stay out of the log and the jobs table.
    const safe = withoutQueryParams(error)
    const message = safe instanceof Error ? `${safe.name}: ${safe.message}` : String(safe)
    const [row] = await db.select({ max: jobs.maxAttempts }).from(jobs).where(eq(jobs.id, job.id))
    const final = error instanceof PermanentJobError || job.attempts >= (row?.max ?? 1)
    if (final) {
      logger.error({ err: safe, job: { id: job.id, kind: job.kind } }, 'job failed for good')
      await db
        .update(jobs)
        .set({ finishedAt: sql`now()`, failed: true, lockedUntil: null, lastError: message })
        .where(mine)
    } else {
      logger.warn(
        { err: safe, job: { id: job.id, kind: job.kind, attempts: job.attempts } },
        'job will retry',
      )
      // Timed by the database's clock, the one claims read: an instance whose clock runs ahead would otherwise
      // retry late, and a retry due at once could look not due yet to the next claim.
      await db
        .update(jobs)
        .set({
          runAt: sql`now() + ${Math.max(0, Math.round(backoffMs(job.attempts)))}::float8 * interval '1 millisecond'`,
          lockedUntil: null,
          lastError: message,
        })
        .where(mine)
    }
  }

  /**
   * Keeps the job this runner's while its handler runs. A mail whose SMTP server answered after the lease ran out
   * was claimed again by another slot or instance and sent twice (its row is written only after the send).
   */
  const renewing = new Set<NodeJS.Timeout>()
  function renewLease(job: Job): () => Promise<void> {
    let renewals = 0
    // One renewal at a time: a tick while one is still on its way is skipped.
    let pending: Promise<unknown> | undefined
    const timer = setInterval(() => {
      if (pending) return
      if (++renewals >= MAX_LEASES * 3) {
        clearInterval(timer)
        renewing.delete(timer)
        logger.warn({ job: { id: job.id, kind: job.kind } }, 'job still running after its last lease: let go')
        return
      }
      pending = db
        .update(jobs)
        .set({ lockedUntil: sql`now() + make_interval(secs => ${leaseMs / 1000})` })
        .where(and(eq(jobs.id, job.id), eq(jobs.lockedBy, workerId), isNull(jobs.finishedAt)))
        .catch((err) => logger.warn({ err, job: { id: job.id, kind: job.kind } }, 'could not renew a lease'))
        .finally(() => {
          pending = undefined
        })
    }, leaseMs / 3)
    timer.unref()
    renewing.add(timer)
    // A renewal still on its way must not land after the job's end is recorded (it would lock a retry out).
    return async () => {
      clearInterval(timer)
      renewing.delete(timer)
      await pending
    }
  }

  async function run(job: Job) {
    const handler = handlers[job.kind]
    let error: unknown
    const stopRenewing = renewLease(job)
    try {
      if (!handler) throw new PermanentJobError(`No handler for job kind ${job.kind}`)
      await handler(job, { db })
    } catch (err) {
      error = err ?? new Error('job failed')
    }
    await stopRenewing()
    await finish(job, error).catch((err) =>
      // The lease runs out and the job runs again: handlers are safe to re-run.
      logger.warn({ err, job: { id: job.id, kind: job.kind } }, 'could not record the end of a job'),
    )
  }

  /** The period each recurring job was last queued for by this runner: one insert per period, not per pass. */
  const queuedPeriod = new Map<string, number>()
  async function enqueueRecurring() {
    const now = Date.now()
    for (const r of options.recurring ?? []) {
      const period = Math.floor(now / r.everyMs)
      if (queuedPeriod.get(r.kind) === period) continue
      await enqueue(db, r.kind, { period }, { dedupeKey: `${r.kind}:${period}`, maxAttempts: 3 })
      queuedPeriod.set(r.kind, period)
    }
  }

  /** One pass: fills the free slots with due jobs. Returns how many were started. */
  async function tick(): Promise<number> {
    if (stopping) return 0
    // Queued even while every slot is busy: a period passed over would never be queued (the sweeps it starts run
    // when a slot frees, on this instance or another).
    await enqueueRecurring()
    const free = concurrency - inFlight.size
    if (free <= 0) return 0
    const claimed = await claim(free)
    for (const job of claimed) {
      const p: Promise<void> = run(job).finally(() => {
        inFlight.delete(p)
        nudge()
      })
      inFlight.add(p)
    }
    return claimed.length
  }

  async function loop() {
    let failures = 0
    while (!stopping) {
      let started = 0
      try {
        started = await tick()
        failures = 0
      } catch (err) {
        // The database is away: look again later, less and less often (up to a minute), so that the runner does not
        // keep connection attempts going that requests would queue behind.
        failures++
        if (failures === 1) logger.warn({ err }, 'job runner could not look for jobs; it will try again')
      }
      if (started > 0 && inFlight.size < concurrency) continue
      const wait = failures > 0 ? Math.min(60_000, pollMs * 5 * 2 ** (failures - 1)) : pollMs
      // A nudge (a job committed, the bus back after a drop) ends the wait early.
      if (!woken)
        await new Promise<void>((resolve) => {
          wake = resolve
          timer = setTimeout(resolve, wait)
          timer.unref?.()
        })
      wake = undefined
      woken = false
      if (timer) clearTimeout(timer)
    }
  }

  if (options.bus) {
    options.bus
      .subscribe(JOBS_CHANNEL, nudge, { onReady: nudge })
      .then((u) => {
        if (stopping) void u()
        else unsubscribe = u
      })
      .catch((err) => logger.warn({ err }, 'job runner is polling only (no event bus)'))
  }
  const looping = options.autoStart === false ? Promise.resolve() : loop()

  return {
    workerId,
    async drain() {
      let ran = 0
      for (;;) {
        const started = await tick()
        ran += started
        if (inFlight.size === 0 && started === 0) return ran
        if (inFlight.size > 0) await Promise.race(inFlight)
      }
    },
    async stop(graceMs = 10_000) {
      stopping = true
      nudge()
      await unsubscribe?.().catch(() => {})
      await looping
      let graceTimer: NodeJS.Timeout | undefined
      await Promise.race([
        Promise.allSettled([...inFlight]),
        new Promise((resolve) => {
          graceTimer = setTimeout(resolve, graceMs)
        }),
      ])
      clearTimeout(graceTimer)
      // Jobs still running after the grace are let go: their leases run out and another runner takes them.
      for (const timer of renewing) clearInterval(timer)
      renewing.clear()
    },
  }
}
