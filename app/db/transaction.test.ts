import { describe, expect, it, vi } from 'vitest'
import { isRetryableConflict, retryOnConflict } from './transaction'

const withCode = (code: string) => Object.assign(new Error(code), { code })
const noSleep = { sleep: async () => {}, random: () => 0.5 }

describe('retryOnConflict', () => {
  it('runs again after a deadlock or a serialization failure, then returns the result', async () => {
    const work = vi
      .fn<() => Promise<string>>()
      .mockRejectedValueOnce(withCode('40P01'))
      .mockRejectedValueOnce(new Error('wrapped', { cause: withCode('40001') }))
      .mockResolvedValue('ok')
    expect(await retryOnConflict(work, noSleep)).toBe('ok')
    expect(work).toHaveBeenCalledTimes(3)
  })
  it('passes any other error through at once', async () => {
    const work = vi.fn<() => Promise<string>>().mockRejectedValue(withCode('23505'))
    await expect(retryOnConflict(work, noSleep)).rejects.toMatchObject({ code: '23505' })
    expect(work).toHaveBeenCalledTimes(1)
  })
  it('gives up after the bound, with the last error', async () => {
    const work = vi.fn<() => Promise<string>>().mockRejectedValue(withCode('40P01'))
    await expect(retryOnConflict(work, { ...noSleep, attempts: 4 })).rejects.toMatchObject({ code: '40P01' })
    expect(work).toHaveBeenCalledTimes(4)
  })
  it('waits a jittered, growing time between attempts', async () => {
    const waits: number[] = []
    const work = vi
      .fn<() => Promise<string>>()
      .mockRejectedValueOnce(withCode('40P01'))
      .mockRejectedValueOnce(withCode('40P01'))
      .mockResolvedValue('ok')
    await retryOnConflict(work, {
      baseDelayMs: 10,
      random: () => 1,
      sleep: async (ms) => void waits.push(ms),
    })
    expect(waits).toEqual([20, 40])
  })
})

describe('isRetryableConflict', () => {
  it('finds the SQLSTATE anywhere in the cause chain', () => {
    expect(isRetryableConflict(new Error('a', { cause: new Error('b', { cause: withCode('40P01') }) }))).toBe(
      true,
    )
    expect(isRetryableConflict(withCode('57014'))).toBe(false)
    expect(isRetryableConflict(undefined)).toBe(false)
  })
})
