import { describe, expect, it } from 'vitest'
import { afterFirstRuns, calibratedMultiplier, mainThreadCpuShare } from './lighthouse-host.mjs'

const thread = (pid: number, tid: number, name: string) => ({
  name: 'thread_name',
  ph: 'M',
  pid,
  tid,
  args: { name },
})
let clock = 0
// Tasks one after the other unless a start is given.
const task = (pid: number, tid: number, dur: number, tdur: number, ts?: number) => {
  clock += 1_000_000
  return { name: 'RunTask', ph: 'X', pid, tid, ts: ts ?? clock, dur, tdur }
}

describe('mainThreadCpuShare', () => {
  it("reads the page's renderer main thread: the one with the most task time", () => {
    const events = [
      thread(1, 1, 'CrRendererMain'),
      thread(2, 1, 'CrRendererMain'),
      thread(3, 7, 'VizCompositorThread'),
      // about:blank's renderer: little time, all of it on the CPU
      task(1, 1, 2_000, 2_000),
      // the page: 100 ms of tasks, 45 ms of them on the CPU
      task(2, 1, 60_000, 25_000),
      task(2, 1, 40_000, 20_000),
      // another process's thread is not the page's, however busy
      task(3, 7, 500_000, 100_000),
    ]
    expect(mainThreadCpuShare(events)).toBeCloseTo(0.45)
  })

  it('leaves out tasks under a millisecond, whose thread time is mostly timer granularity', () => {
    const events = [thread(2, 1, 'CrRendererMain'), task(2, 1, 10_000, 10_000), task(2, 1, 900, 0)]
    expect(mainThreadCpuShare(events)).toBe(1)
  })

  it('never counts more thread time than wall time', () => {
    const events = [thread(2, 1, 'CrRendererMain'), task(2, 1, 10_000, 10_400)]
    expect(mainThreadCpuShare(events)).toBe(1)
  })

  it('counts a task run inside another once, as part of the outer one', () => {
    const events = [
      thread(2, 1, 'CrRendererMain'),
      // out of time order, as a trace may list them
      task(2, 1, 10_000, 10_000, 6_000_000),
      // a nested message loop's task, within the outer one below: already in its wall and thread time; one that
      // starts at the same instant as its outer task too
      task(2, 1, 10_000, 10_000, 5_010_000),
      task(2, 1, 5_000, 5_000, 5_000_000),
      task(2, 1, 40_000, 20_000, 5_000_000),
    ]
    expect(mainThreadCpuShare(events)).toBeCloseTo(30_000 / 50_000)
  })

  it('ignores begin/end pairs and instant events, which carry no thread time of a whole task', () => {
    const events = [
      thread(2, 1, 'CrRendererMain'),
      task(2, 1, 10_000, 5_000),
      { name: 'RunTask', ph: 'B', pid: 2, tid: 1, ts: 9_000_000, dur: 100_000, tdur: 100_000 },
      { name: 'RunTask', ph: 'E', pid: 2, tid: 1, ts: 9_100_000, dur: 100_000, tdur: 100_000 },
      { name: 'RunTask', ph: 'I', pid: 2, tid: 1, ts: 9_200_000, dur: 100_000, tdur: 100_000 },
    ]
    expect(mainThreadCpuShare(events)).toBeCloseTo(0.5)
  })

  it('is null when the trace has no main-thread tasks with thread time', () => {
    expect(mainThreadCpuShare([])).toBeNull()
    expect(
      mainThreadCpuShare([thread(2, 1, 'CrRendererMain'), { ...task(2, 1, 5_000, 0), tdur: undefined }]),
    ).toBeNull()
  })
})

describe('calibratedMultiplier', () => {
  it("keeps Lighthouse's default on a host that does not take the CPU away", () => {
    expect(calibratedMultiplier(null)).toBe(4)
    expect(calibratedMultiplier(1)).toBe(4)
    expect(calibratedMultiplier(0.9)).toBe(4)
  })

  it("keeps the simulated phone at four times the host's CPU when the host steals time", () => {
    expect(calibratedMultiplier(0.45)).toBe(1.8)
    expect(calibratedMultiplier(0.899)).toBe(3.6)
  })

  it('never simulates a phone faster than the host', () => {
    expect(calibratedMultiplier(0.1)).toBe(1)
  })

  it("rounds up, never in the page's favour", () => {
    expect(calibratedMultiplier(0.4875)).toBe(2)
    expect(calibratedMultiplier(0.48)).toBe(2)
    expect(calibratedMultiplier(0.46)).toBe(1.9)
    // 4 × 0.275 × 10 is 11.000000000000002 in floating point: an exact product is not rounded up a tenth
    expect(calibratedMultiplier(0.275)).toBe(1.1)
  })

  it('scales another base the same way', () => {
    expect(calibratedMultiplier(0.5, 6)).toBe(3)
    expect(calibratedMultiplier(0.95, 6)).toBe(6)
  })
})

describe('afterFirstRuns', () => {
  it('ends at a median that meets the bar, whatever the host', () => {
    expect(afterFirstRuns(95, [0.4, 0.45, 0.5], 95)).toEqual({ more: false, share: null, multiplier: 4 })
  })

  it('runs five more at the default on a fair host, so a heavy page fails as before', () => {
    expect(afterFirstRuns(80, [0.95, 0.97, 0.92, null], 95)).toEqual({
      more: true,
      share: 0.95,
      multiplier: 4,
    })
  })

  it('calibrates from the median share when the host took the CPU away', () => {
    const next = afterFirstRuns(82, [0.5, 0.44, 0.47, 0.45, 0.6], 95)
    expect(next).toEqual({ more: true, share: 0.47, multiplier: 1.9 })
  })

  it('leaves unmeasured runs out of the median share', () => {
    expect(afterFirstRuns(82, [null, null, null, 0.5, 0.4], 95)).toEqual({
      more: true,
      share: 0.5,
      multiplier: 2,
    })
  })

  it('keeps the default when no run could be measured', () => {
    expect(afterFirstRuns(82, [null, null], 95)).toEqual({ more: true, share: null, multiplier: 4 })
  })
})
