import { describe, expect, it } from 'vitest'
import { attachmentDisposition, csvBytes, csvField, csvText } from './csv'

describe('csv', () => {
  it('quotes commas, quotes and line breaks (RFC 4180)', () => {
    expect(csvField('plain')).toBe('plain')
    expect(csvField('a,b')).toBe('"a,b"')
    expect(csvField('say "hi"')).toBe('"say ""hi"""')
    expect(csvField('line1\nline2')).toBe('"line1\nline2"')
    expect(csvField('cr\r')).toBe('"cr\r"')
    expect(csvField(1200)).toBe('1200')
    expect(csvField(null)).toBe('')
    expect(csvField(undefined)).toBe('')
  })

  it('keeps formulas as text', () => {
    expect(csvField('=SUM(A1)')).toBe("'=SUM(A1)")
    expect(csvField('-5')).toBe("'-5")
    expect(csvField(-5)).toBe('-5')
  })

  it('writes a header row and CRLF rows', () => {
    expect(csvText(['a', 'b'], [[1, 'x,y']])).toBe('a,b\r\n1,"x,y"\r\n')
    expect(csvText(['a'], [])).toBe('a\r\n')
  })

  it('starts with the UTF-8 BOM', () => {
    const bytes = csvBytes(['名前'], [['たろう']])
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
    expect(new TextDecoder().decode(bytes.slice(3))).toBe('名前\r\nたろう\r\n')
  })

  it('names the attachment in ASCII and UTF-8', () => {
    expect(attachmentDisposition('売上.csv', 'sales.csv')).toBe(
      `attachment; filename="sales.csv"; filename*=UTF-8''%E5%A3%B2%E4%B8%8A.csv`,
    )
  })
})
