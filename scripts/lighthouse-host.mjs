// How much of the page's main-thread time the test host itself took away, read from a Lighthouse trace
// (docs/decisions/0039). Lighthouse's simulated throttling multiplies the wall time of every main-thread task by
// `cpuSlowdownMultiplier` (4): it assumes the task was on the CPU for all of it. On a host that keeps the thread
// off the CPU inside its tasks (a virtual machine whose page faults and system calls are served by the hypervisor),
// that assumption fails and the simulated phone is slower than the multiplier says. Lighthouse's guidance is to
// calibrate the multiplier to the host; this measures the host in the same trace.

// Tasks shorter than this are mostly timer granularity: their thread time says little.
const MIN_TASK_US = 1000

/**
 * The share of wall time the page's main thread was on the CPU during its tasks: the sum of the tasks' thread time
 * (`tdur`) over the sum of their wall time (`dur`), top-level tasks of 1 ms or more. The page's main thread is the
 * renderer main thread with the most task time. `null` when the trace has no such tasks (nothing to measure: the
 * run is left out of the median share, and with no run measured the caller keeps Lighthouse's default).
 * @param {Array<{name: string, ph: string, pid: number, tid: number, ts?: number, dur?: number, tdur?: number, args?: any}>} traceEvents
 */
export function mainThreadCpuShare(traceEvents) {
  const mainThreads = new Set(
    traceEvents
      .filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
      .map((e) => `${e.pid}:${e.tid}`),
  )
  const tasks = traceEvents
    .filter(
      (e) =>
        e.name === 'RunTask' &&
        e.ph === 'X' &&
        typeof e.tdur === 'number' &&
        e.dur >= MIN_TASK_US &&
        mainThreads.has(`${e.pid}:${e.tid}`),
    )
    .sort((a, b) => (a.ts ?? 0) - (b.ts ?? 0) || b.dur - a.dur)
  const perThread = new Map()
  for (const e of tasks) {
    const key = `${e.pid}:${e.tid}`
    const t = perThread.get(key) ?? { wall: 0, cpu: 0, end: Number.NEGATIVE_INFINITY }
    // A task run inside another (a nested message loop) is already part of the outer one's time.
    if ((e.ts ?? 0) < t.end) continue
    t.wall += e.dur
    t.cpu += Math.min(e.tdur, e.dur)
    t.end = (e.ts ?? 0) + e.dur
    perThread.set(key, t)
  }
  let page = null
  for (const t of perThread.values()) if (!page || t.wall > page.wall) page = t
  return page && page.wall > 0 ? page.cpu / page.wall : null
}

// At or above this share the host is taken as fair and Lighthouse's default applies unchanged. A chosen line, not
// one measured on a fair host (none was at hand): it leaves room for the waits every browser has on a busy machine.
export const FAIR_HOST_SHARE = 0.9

/**
 * The CPU multiplier that keeps the simulated phone at `base` times this host's CPU: `base × share`, rounded up
 * to one decimal (never in the page's favour), never below 1 (never faster than the host) and never above `base`.
 * @param {number | null} share
 */
export function calibratedMultiplier(share, base = 4) {
  if (share === null || share >= FAIR_HOST_SHARE) return base
  // Rounded to 1e-6 first: 4 × 0.275 × 10 is 11.000000000000002 in floating point, which would round up to 1.2.
  const tenths = Math.ceil(Math.round(base * share * 1e6) / 1e5)
  return Math.min(base, Math.max(1, tenths / 10))
}

/**
 * What follows a page's first runs at `base`. A median at the bar ends it, as it always did. Short of it, five
 * more runs: at `base` on a fair host (the median of all ten is counted), or, on a host that took the CPU away,
 * at the calibrated multiplier (only those runs are counted, five more if still short).
 * @param {number} medianPerformance 0–100
 * @param {Array<number | null>} shares each run's `mainThreadCpuShare`
 * @param {number} minPerformance
 */
export function afterFirstRuns(medianPerformance, shares, minPerformance, base = 4) {
  if (medianPerformance >= minPerformance) return { more: false, share: null, multiplier: base }
  const known = shares.filter((s) => s !== null).sort((a, b) => a - b)
  const share = known.length ? known[Math.floor(known.length / 2)] : null
  return { more: true, share, multiplier: calibratedMultiplier(share, base) }
}
