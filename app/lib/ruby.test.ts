import { describe, expect, it } from 'vitest'
import { hasReadings, rubyOfTokens, rubyText, type Token, toHiragana } from './ruby'

describe('rubyOfTokens', () => {
  const cases: [string, Token[], unknown[]][] = [
    ['a kanji word', [['英語', 'エイゴ']], [['英語', 'えいご']]],
    ['okurigana stays plain', [['読み', 'ヨミ']], [['読', 'よ'], 'み']],
    ['kana between kanji', [['食べ物', 'タベモノ']], [['食', 'た'], 'べ', ['物', 'もの']]],
    ['kana before kanji', [['お父さん', 'オトウサン']], ['お', ['父', 'とう'], 'さん']],
    [
      'plain words join',
      [
        ['を', 'ヲ'],
        ['、', '、'],
        ['ピアノ', 'ピアノ'],
      ],
      ['を、ピアノ'],
    ],
    ['no reading (unknown word)', [['𠮷野', undefined]], ['𠮷野']],
    [
      'a reading that does not split keeps the whole word',
      [['今日は', 'キョウハ']],
      [['今日', 'きょう'], 'は'],
    ],
    ['odd reading falls back to the whole token', [['明日', 'アス']], [['明日', 'あす']]],
    ['kanji repeat mark', [['人々', 'ヒトビト']], [['人々', 'ひとびと']]],
    [
      'line breaks survive',
      [
        ['英語', 'エイゴ'],
        ['\n', '*'],
        ['教室', 'キョウシツ'],
      ],
      [['英語', 'えいご'], '\n', ['教室', 'きょうしつ']],
    ],
  ]
  it.each(cases)('%s', (_name, tokens, expected) => {
    const ruby = rubyOfTokens(tokens)
    expect(ruby).toEqual(expected)
    expect(rubyText(ruby)).toBe(tokens.map((t) => t[0]).join(''))
  })

  it('a mismatched okurigana gives the whole word its reading', () => {
    expect(
      rubyOfTokens([
        ['行う', 'オコナウ'],
        ['見せ', 'ミセ'],
      ]),
    ).toEqual([['行', 'おこな'], 'う', ['見', 'み'], 'せ'])
    expect(rubyOfTokens([['書き', 'カケ']])).toEqual([['書き', 'かけ']])
  })
})

describe('helpers', () => {
  it('toHiragana folds katakana, ヴ included', () => {
    expect(toHiragana('ヴァイオリンとABC')).toBe('ゔぁいおりんとABC')
  })
  it('hasReadings', () => {
    expect(hasReadings(['ひらがなだけ'])).toBe(false)
    expect(hasReadings([['字', 'じ']])).toBe(true)
  })
})
