import { afterAll, describe, expect, it } from 'vitest'
import { analyze, stopAnalyzer } from './analyzer.server'

afterAll(() => stopAnalyzer())

describe('the analyser worker', () => {
  it('reads Japanese text into furigana segments', async () => {
    const [a, b] = await analyze(['小学生の算数', 'ひらがなだけ'])
    expect(a).toEqual([['小学生', 'しょうがくせい'], 'の', ['算数', 'さんすう']])
    expect(b).toEqual(['ひらがなだけ'])
  }, 30_000)

  it('a worker that ends mid-call fails that call instead of hanging it, and the next call starts a new one', async () => {
    const pending = expect(analyze(['読み聞かせ'.repeat(20_000)])).rejects.toThrow('analyser worker exited')
    await new Promise((r) => setTimeout(r, 5))
    await stopAnalyzer()
    await pending
    expect(await analyze(['英語'])).toEqual([[['英語', 'えいご']]])
    // Stopped while starting: the call fails at once.
    const starting = expect(analyze(['英語'])).rejects.toThrow('analyser worker stopped')
    await stopAnalyzer()
    await starting
  }, 30_000)
})
