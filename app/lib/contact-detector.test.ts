import { describe, expect, it } from 'vitest'
import { contactKindsLabel, detectContactInfo } from './contact-detector'

const kinds = (text: string) => detectContactInfo(text).kinds

describe('detectContactInfo', () => {
  it.each([
    '090-1234-5678',
    '09012345678',
    '090 1234 5678',
    '０９０－１２３４－５６７８',
    '０９０１２３４５６７８',
    '090ー1234ー5678',
    '03-1234-5678',
    '(03) 1234-5678',
    '0120-123-456',
    '電話は〇九〇一二三四五六七八です',
    '+81 90 1234 5678',
    '連絡先：090.1234.5678 までお願いします',
  ])('flags the phone number in %s', (text) => {
    expect(kinds(text)).toContain('phone')
  })

  it.each([
    'taro@example.com',
    'ｔａｒｏ＠ｅｘａｍｐｌｅ．ｃｏｍ',
    'メールは taro.yamada+lesson@mail.example.co.jp へ',
    'taro アットマーク example ドット com',
    'taro(at)example(dot)com',
  ])('flags the e-mail address in %s', (text) => {
    expect(kinds(text)).toContain('email')
  })

  it.each([
    'LINE ID: abc123',
    'ＬＩＮＥ　ＩＤ：ａｂｃ１２３',
    'ライン：abc',
    'らいんはtaro_0501です',
    'line@taro.yamada',
    'LINEのIDは→ taro99',
  ])('flags the LINE ID in %s', (text) => {
    expect(kinds(text)).toContain('line')
  })

  it.each([
    'https://example.com/page',
    'ｈｔｔｐｓ：／／ｅｘａｍｐｌｅ．ｃｏｍ',
    'http://192.168.0.1/',
    'www.example.com を見てください',
    'ＷＷＷ．ｅｘａｍｐｌｅ．ｊｐ',
    'bit.ly/abc でどうぞ',
    'example.co.jp に詳しく',
  ])('flags the outside URL in %s', (text) => {
    expect(kinds(text)).toContain('url')
  })

  it.each([
    '料金は¥3,000です',
    '3000円のクラスです',
    '３，０００円',
    '2026/11/21に開催します',
    '2026-11-21 10:30〜11:30',
    '11月21日 10:30〜11:30です',
    '１１月２１日（土）１０：３０～１１：３０',
    '定員は10名、対象は小学1〜6年生です',
    'LINEで連絡するのはやめましょう',
    'オンラインクラスで会いましょう',
    'online class is fun',
    'ラインナップを増やしました',
    '宿題はp.12〜p.15です',
    'Node.js と Vue.js を使います',
    '2026年11月21日 第3回 全10回',
    '受講者番号 12345',
    'よろしくお願いします！',
    '',
  ])('does not flag %s', (text) => {
    expect(detectContactInfo(text)).toEqual({ flagged: false, kinds: [] })
  })

  it('names what was found', () => {
    expect(contactKindsLabel(kinds('090-1234-5678 taro@example.com'))).toBe('電話番号・メールアドレス')
  })
})
