import { describe, expect, it, vi } from 'vitest'
import { isRetryableConflict, retriedConflicts, retryOnConflict, transaction } from './transaction'

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
  it('counts what it retried, by SQLSTATE', async () => {
    const before = { ...retriedConflicts }
    const work = vi
      .fn<() => Promise<string>>()
      .mockRejectedValueOnce(withCode('40P01'))
      .mockRejectedValueOnce(withCode('40001'))
      .mockRejectedValueOnce(withCode('40001'))
      .mockResolvedValue('ok')
    await retryOnConflict(work, noSleep)
    expect(retriedConflicts['40P01']).toBe((before['40P01'] ?? 0) + 1)
    expect(retriedConflicts['40001']).toBe((before['40001'] ?? 0) + 2)
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

describe('transaction', () => {
  it('runs the whole db.transaction again, each time with a fresh transaction', async () => {
    let calls = 0
    const db = {
      transaction: async <T>(fn: (tx: unknown) => Promise<T>) => {
        calls++
        if (calls === 1) throw new Error('Failed query', { cause: withCode('40P01') })
        return fn({ attempt: calls })
      },
    }
    // biome-ignore lint/suspicious/noExplicitAny: a stand-in for drizzle's database
    const result = await transaction(db as any, async (tx) => tx, noSleep)
    expect(result).toEqual({ attempt: 2 })
  })
  it('gives up with the default bound of 5 attempts', async () => {
    const db = { transaction: vi.fn(async () => Promise.reject(withCode('40001'))) }
    // biome-ignore lint/suspicious/noExplicitAny: a stand-in for drizzle's database
    await expect(transaction(db as any, async () => 1, noSleep)).rejects.toMatchObject({ code: '40001' })
    expect(db.transaction).toHaveBeenCalledTimes(5)
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
