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
 * (`tdur`) over the sum of their wall time (`dur`). The page's main thread is the renderer main thread with the
 * most task time. `null` when the trace has no such tasks (nothing to measure).
 * @param {Array<{name: string, ph: string, pid: number, tid: number, dur?: number, tdur?: number, args?: any}>} traceEvents
 */
export function mainThreadCpuShare(traceEvents) {
  const mainThreads = new Set(
    traceEvents
      .filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
      .map((e) => `${e.pid}:${e.tid}`),
  )
  const perThread = new Map()
  for (const e of traceEvents) {
    if (e.name !== 'RunTask' || e.ph !== 'X' || typeof e.tdur !== 'number' || !(e.dur >= MIN_TASK_US))
      continue
    const key = `${e.pid}:${e.tid}`
    if (!mainThreads.has(key)) continue
    const t = perThread.get(key) ?? { wall: 0, cpu: 0 }
    t.wall += e.dur
    t.cpu += Math.min(e.tdur, e.dur)
    perThread.set(key, t)
  }
  let page = null
  for (const t of perThread.values()) if (!page || t.wall > page.wall) page = t
  return page && page.wall > 0 ? page.cpu / page.wall : null
}

// At or above this share the host is taken as not stealing time (a busy multi-core machine stays above it), and
// Lighthouse's default applies unchanged.
export const FAIR_HOST_SHARE = 0.9

/**
 * The CPU multiplier that keeps the simulated phone at `base` times this host's CPU: `base × share`, to one
 * decimal, never below 1 (never faster than the host) and never above `base`.
 * @param {number | null} share
 */
export function calibratedMultiplier(share, base = 4) {
  if (share === null || share >= FAIR_HOST_SHARE) return base
  return Math.min(base, Math.max(1, Math.round(base * share * 10) / 10))
}
