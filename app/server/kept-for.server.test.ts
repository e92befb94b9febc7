import { describe, expect, it, vi } from 'vitest'
import { keptFor } from './kept-for.server'

describe('keptFor', () => {
  it('builds once per period, shares a build in flight, and keeps nothing from a failed build', async () => {
    let now = 0
    const build = vi.fn(async () => `built at ${now}`)
    const get = keptFor(600_000, build, () => now)
    expect(await Promise.all([get(), get(), get()])).toEqual(['built at 0', 'built at 0', 'built at 0'])
    now = 599_999
    expect(await get()).toBe('built at 0')
    expect(build).toHaveBeenCalledTimes(1)
    now = 600_000
    expect(await get()).toBe('built at 600000')
    expect(build).toHaveBeenCalledTimes(2)

    const failing = vi.fn().mockRejectedValueOnce(new Error('database away')).mockResolvedValue('ok')
    const flaky = keptFor(600_000, failing, () => now)
    await expect(flaky()).rejects.toThrow('database away')
    expect(await flaky()).toBe('ok')
  })
})
