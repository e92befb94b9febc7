import { describe, expect, it } from 'vitest'
import { calibratedMultiplier, mainThreadCpuShare } from './lighthouse-host.mjs'

const thread = (pid: number, tid: number, name: string) => ({
  name: 'thread_name',
  ph: 'M',
  pid,
  tid,
  args: { name },
})
const task = (pid: number, tid: number, dur: number, tdur: number) => ({
  name: 'RunTask',
  ph: 'X',
  pid,
  tid,
  dur,
  tdur,
})

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
})
