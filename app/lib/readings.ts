/**
 * Readings of the words parents type in kana (issue 16: えいご finds 英語). A curated list of subjects, lesson
 * kinds and school words rather than a morphological analyser: it is what a class search meets, it is exact for
 * these words, and it costs nothing at run time (kuromoji's dictionary would add ~20 MB and a slow start;
 * docs/decisions/0022). Katakana words need nothing: the search folds katakana and hiragana already.
 * The readings of the words a class's text contains are added to its search text when it is written.
 */
export const READINGS: Readonly<Record<string, string>> = {
  英語: 'えいご',
  英会話: 'えいかいわ',
  英検: 'えいけん',
  数学: 'すうがく',
  算数: 'さんすう',
  計算: 'けいさん',
  暗算: 'あんざん',
  理科: 'りか',
  科学: 'かがく',
  化学: 'かがく',
  物理: 'ぶつり',
  生物: 'せいぶつ',
  実験: 'じっけん',
  天文: 'てんもん',
  星空: 'ほしぞら',
  宇宙: 'うちゅう',
  社会: 'しゃかい',
  歴史: 'れきし',
  地理: 'ちり',
  地図: 'ちず',
  国語: 'こくご',
  漢字: 'かんじ',
  作文: 'さくぶん',
  読書: 'どくしょ',
  絵本: 'えほん',
  読み聞かせ: 'よみきかせ',
  音楽: 'おんがく',
  合唱: 'がっしょう',
  歌: 'うた',
  図工: 'ずこう',
  工作: 'こうさく',
  美術: 'びじゅつ',
  絵画: 'かいが',
  水彩: 'すいさい',
  水彩画: 'すいさいが',
  書道: 'しょどう',
  習字: 'しゅうじ',
  陶芸: 'とうげい',
  折り紙: 'おりがみ',
  将棋: 'しょうぎ',
  囲碁: 'いご',
  料理: 'りょうり',
  体操: 'たいそう',
  運動: 'うんどう',
  中国語: 'ちゅうごくご',
  韓国語: 'かんこくご',
  日本語: 'にほんご',
  外国語: 'がいこくご',
  受験: 'じゅけん',
  宿題: 'しゅくだい',
  勉強: 'べんきょう',
  自由研究: 'じゆうけんきゅう',
  入門: 'にゅうもん',
  初心者: 'しょしんしゃ',
  親子: 'おやこ',
  幼児: 'ようじ',
  小学生: 'しょうがくせい',
  中学生: 'ちゅうがくせい',
  高校生: 'こうこうせい',
  大学生: 'だいがくせい',
  演劇: 'えんげき',
  手芸: 'しゅげい',
  写真: 'しゃしん',
  動画: 'どうが',
  論理: 'ろんり',
  思考: 'しこう',
  お金: 'おかね',
  経済: 'けいざい',
}

/** The readings of the listed words that `text` contains (each once, in the list's order). */
export function readingsOf(text: string): string[] {
  const out = new Set<string>()
  for (const [word, reading] of Object.entries(READINGS)) if (text.includes(word)) out.add(reading)
  return [...out]
}
