import { describe, expect, it } from 'vitest'
import { classSearchText, normalizeSearchText, searchTerms } from './search-normalize'

describe('normalizeSearchText', () => {
  it('treats hiragana and katakana as the same', () => {
    expect(normalizeSearchText('ぷろぐらみんぐ')).toBe(normalizeSearchText('プログラミング'))
    expect(normalizeSearchText('プログラミング')).toBe('ぷろぐらみんぐ')
  })
  it('folds full-width letters and lower-cases', () => {
    expect(normalizeSearchText('ＰＹＴＨＯＮ')).toBe('python')
    expect(normalizeSearchText('Python入門')).toBe('python入門')
  })
  it('folds half-width katakana (with voiced marks) to hiragana', () => {
    expect(normalizeSearchText('ﾌﾟﾛｸﾞﾗﾐﾝｸﾞ')).toBe('ぷろぐらみんぐ')
  })
  it('keeps the long vowel mark and kanji', () => {
    expect(normalizeSearchText('ダンス・ボーカル 陶芸')).toBe('だんす・ぼーかる 陶芸')
  })
  it('collapses white space, including the ideographic space', () => {
    expect(normalizeSearchText('  英語\u3000\n会話  ')).toBe('英語 会話')
  })
  it('maps full-width digits and ヴ, ヶ', () => {
    expect(normalizeSearchText('ヴァイオリン１２３ヶ月')).toBe('ゔぁいおりん123ゖ月')
  })
  it('returns an empty string for empty input', () => {
    expect(normalizeSearchText('')).toBe('')
  })
})

describe('searchTerms', () => {
  it('splits on any white space and de-duplicates', () => {
    expect(searchTerms('英語　えいご  英語')).toEqual(['英語', 'えいご'])
  })
  it('gives no terms for blank input', () => {
    expect(searchTerms('   ')).toEqual([])
    expect(searchTerms(undefined)).toEqual([])
  })
  it('keeps every term, however many (each must match)', () => {
    expect(searchTerms('a b c d e f g h i j')).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'])
  })
})

describe('classSearchText readings (issue 16)', () => {
  it('adds the kana readings of listed words, so a query in kana finds the kanji', () => {
    const text = classSearchText({
      title: 'はじめての英語と数学',
      description: '',
      teacherNickname: 'けんた先生',
      categoryName: '語学',
    })
    for (const q of ['えいご', 'すうがく', 'エイゴ'])
      for (const t of searchTerms(q)) expect(text).toContain(t)
    expect(text).not.toContain('しょうぎ')
  })
  it('needs nothing for katakana words: ぴあの already folds to ピアノ', () => {
    const text = classSearchText({
      title: 'ピアノ入門',
      description: '',
      teacherNickname: '',
      categoryName: '',
    })
    expect(text).toContain(searchTerms('ぴあの')[0]!)
    expect(text).toContain('にゅうもん')
  })
})
