import { describe, expect, it } from 'vitest'
import { gramsTsquery, termGrams, textGrams, tsqueryLexeme } from './search-bigrams'
import { normalizeSearchText, searchTerms } from './search-normalize'

describe('termGrams', () => {
  it('gives a 1-character term itself', () => {
    expect(termGrams('陶')).toEqual(['陶'])
  })

  it('gives a 2-character term as one bigram', () => {
    expect(termGrams('陶芸')).toEqual(['陶芸'])
    expect(termGrams('将棋')).toEqual(['将棋'])
  })

  it('gives longer terms as bigrams that cover every character, distinct, in order', () => {
    expect(termGrams('ぷろぐらみんぐ')).toEqual(['ぷろ', 'ぐら', 'みん', 'んぐ'])
    expect(termGrams('英会話')).toEqual(['英会', '会話'])
    expect(termGrams('ああああ')).toEqual(['ああ'])
    expect(termGrams('python')).toEqual(['py', 'th', 'on'])
  })

  it('only asks for pairs the text of a match holds', () => {
    for (const term of ['ぷろぐらみんぐ', 'はじめてのぷろぐらみんぐ教室', 'python', '英会話']) {
      const held = new Set(textGrams(`あいう${term}えお`))
      expect(termGrams(term).every((g) => held.has(g))).toBe(true)
    }
  })

  it('counts code points, not UTF-16 units', () => {
    expect(termGrams('𠮷野')).toEqual(['𠮷野'])
    expect(termGrams('🎹')).toEqual(['🎹'])
  })

  it('gives nothing for an empty term', () => {
    expect(termGrams('')).toEqual([])
  })
})

describe('textGrams', () => {
  it('holds every character and adjacent pair within words, sorted and distinct', () => {
    expect(textGrams('陶芸 教室')).toEqual(['教', '教室', '室', '芸', '陶', '陶芸'].sort())
  })

  it('never pairs across spaces, tabs or line breaks', () => {
    expect(textGrams('a b\tc\nd')).toEqual(['a', 'b', 'c', 'd'])
    expect(textGrams('  ')).toEqual([])
  })

  it('contains the grams of every substring term, so a substring always passes the index', () => {
    const text = normalizeSearchText('はじめてのプログラミング教室 Ｐｙｔｈｏｎ入門')
    const grams = new Set(textGrams(text))
    for (const term of ['ぷろぐらみんぐ', 'python', 'の', 'ぐ教', '入門']) {
      for (const g of termGrams(term)) expect(grams.has(g), `${term}: ${g}`).toBe(true)
    }
  })
})

describe('gramsTsquery', () => {
  it('ANDs the grams of all terms as quoted lexemes', () => {
    expect(gramsTsquery(searchTerms('陶芸 英会話'))).toBe("'陶芸' & '英会' & '会話'")
  })

  it('is null without terms', () => {
    expect(gramsTsquery([])).toBeNull()
  })

  it('quotes apostrophes and backslashes for the tsquery cast', () => {
    expect(tsqueryLexeme("a'")).toBe("'a'''")
    expect(tsqueryLexeme('\\c')).toBe("'\\\\c'")
    expect(gramsTsquery(["it's"])).toBe("'it' & '''s'")
  })
})
