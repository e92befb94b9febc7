import { describe, expect, it } from 'vitest'
import { type ContactKind, contactKindsLabel, detectContactInfo } from './contact-detector'

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
    // Some digits typed one at a time, the rest grouped.
    '090 1 2 3 4 5 6 7 8',
    '0 9 0 1234 5678',
    '090-1234-5 6 7 8',
    // The last digits sent one message at a time (parts are checked joined by line breaks).
    '090-1234-\n5\n6\n7\n8',
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

  // Issue 15: what people write to get around a plain check. Each case names the kind it must report.
  it.each<[string, ContactKind]>([
    // Phone numbers: full width, kanji, kana, English words, mixed, split by spaces or symbols.
    ['０９０１２３４５６７８に電話してください', 'phone'],
    ['〇九〇-一二三四-五六七八', 'phone'],
    ['零九零一二三四五六七八', 'phone'],
    ['〇九〇・一二三四・五六七八', 'phone'],
    ['電話番号は〇八〇の九八七六の五四三二です', 'phone'],
    ['〇九〇一二三四五六七八にかけてください', 'phone'],
    ['ぜろきゅうぜろ いちにさんよん ごろくななはち', 'phone'],
    ['ぜろきゅうぜろいちにさんよんごろくななはちです', 'phone'],
    ['ゼロキューゼロ、イチニーサンヨン、ゴーロクナナハチです', 'phone'],
    ['ゼロハチゼロのキュウハチナナロクのゴーヨンサンニー', 'phone'],
    ['電話は ぜろ・はち・ぜろ・いち・に・さん・よん・ご・ろく・なな・はち まで', 'phone'],
    ['れいさんいちにさんよんごろくななはち', 'phone'],
    ['ｾﾞﾛｷｭｰｾﾞﾛ ｲﾁﾆｻﾝﾖﾝ ｺﾞﾛｸﾅﾅﾊﾁ', 'phone'],
    ['zero nine zero one two three four five six seven eight', 'phone'],
    ['090 いちにさんよん 5678 です', 'phone'],
    ['〇九〇 1234 ごろくななはち', 'phone'],
    ['０９０ー一二三四ー５６７８', 'phone'],
    ['0 9 0 - 1 2 3 4 - 5 6 7 8', 'phone'],
    ['0 9 0 1 2 3 4 5 6 7 8', 'phone'],
    ['090/1234/5678', 'phone'],
    ['090_1234_5678', 'phone'],
    ['090.1234.5678', 'phone'],
    ['090*1234*5678', 'phone'],
    ['090 - 1234 - 5678', 'phone'],
    ['０８０　９８７６　５４３２', 'phone'],
    ['03(1234)5678', 'phone'],
    ['0120 123 456 におかけください', 'phone'],
    ['+81-90-1234-5678', 'phone'],
    ['11月21日 10:30 090-1234-5678 にお願いします', 'phone'],
    ['090の1234の5678', 'phone'],
    ['ゼロ90-1234-5678', 'phone'],
    ['0901234 5678', 'phone'],
    // E-mail addresses, spelled out.
    ['hanako アット gmail ドット com', 'email'],
    ['hanako あっと example どっと jp', 'email'],
    ['hanako アットマーク example.com', 'email'],
    ['hanako あっとまーく yahoo.co.jp', 'email'],
    ['hanako(at)example.com', 'email'],
    ['hanako[at]example[dot]co[dot]jp', 'email'],
    ['ｈａｎａｋｏ＠ｅｘａｍｐｌｅ．ｊｐ', 'email'],
    ['hanako ＠ example ・ com', 'email'],
    ['hanako at gmail dot com', 'email'],
    ['hanako (at) gmail (dot) com', 'email'],
    ['hanako@gmail。com', 'email'],
    ['hanako アット gmail ドットコム', 'email'],
    ['hanako@gmail でお願いします', 'email'],
    ['hanako123 アット ジーメール', 'email'],
    ['Gmailは hanako.mama です', 'email'],
    ['メアドは hanako_0501 です', 'email'],
    ['メールアドレス：hanako', 'email'],
    // LINE.
    ['LINEは hanako_0501 です', 'line'],
    ['ラインのIDは taro123', 'line'],
    ['LINE ID→hanako', 'line'],
    ['ライン ID: hanako', 'line'],
    ['らいんの あいでぃーは hanako', 'line'],
    ['hanako_0501 がLINEのIDです', 'line'],
    ['ラインで hanako_123 を検索してね', 'line'],
    ['LINE@hanako', 'line'],
    // Other SNS accounts and @handles.
    ['@hanako_123', 'sns'],
    ['＠hanako', 'sns'],
    ['インスタやってます！ @hanako.mama', 'sns'],
    ['Xで @abc', 'sns'],
    ['インスタ@hanako', 'sns'],
    ['はなこのインスタ→hanako_mama', 'sns'],
    ['インスタは hanako.mama です', 'sns'],
    ['Instagram: hanako', 'sns'],
    ['insta → hanako_mama', 'sns'],
    ['いんすたは hanako です', 'sns'],
    ['discord: abc#1234', 'sns'],
    ['ディスコードのIDはabc123', 'sns'],
    ['ディスコ: abc123', 'sns'],
    ['Discordで abc_123 を検索', 'sns'],
    ['TikTokのアカウントは hanako です', 'sns'],
    ['ツイッターは taro_99 です', 'sns'],
    ['Twitter ID: taro', 'sns'],
    ['XのIDは abc123', 'sns'],
    ['Xのアカウントは hanako_mama です', 'sns'],
    ['エックスのユーザー名は hanako', 'sns'],
    ['スカイプのID hanako.yamada', 'sns'],
    ['カカオトークのIDは hanako', 'sns'],
    ['フェイスブックは hanako.yamada です', 'sns'],
    ['hanako.mama (インスタ)', 'sns'],
    ['hanako_123 というインスタのアカウントです', 'sns'],
    ['hanako_123 でインスタやってます', 'sns'],
    // Outside URLs, spelled out.
    ['example ドット com', 'url'],
    ['example ドットコム で見られます', 'url'],
    ['example どっと じぇーぴー', 'url'],
    ['example (dot) jp', 'url'],
    ['example . com', 'url'],
    ['h t t p s : / / example', 'url'],
    ['youtu.be/abc を見てください', 'url'],
    ['discord.gg/abc に来てね', 'url'],
    ['lin.ee/abc123', 'url'],
  ])('flags %s as %s', (text, kind) => {
    expect(kinds(text)).toContain(kind)
  })

  it.each([
    '3年生です',
    '90分のレッスンです',
    '10:30〜11:30',
    '11月21日(土)',
    '¥3,000',
    '3000円',
    '2026/11/21',
    '小学2年生と4年生の兄弟です',
    '第1回から第10回まで',
    '100点をとりました',
    '教科書の12ページから15ページ',
    'メールで連絡します',
    'LINEで連絡はできません',
    'オンラインで受講します',
    'Xの値を求める問題',
    'x=3, y=5',
    '@の使い方を教えてください',
    'ドットの絵を描きました',
    'ラインを引いて、ラインは赤にしましょう',
    'ガイドラインを読みました',
    'インスタで見かけて興味を持ちました',
    'Scratch 3.0 でゲームを作ります',
    'Python3でラインを描きます',
    'TikTokはiPadで見ています',
    'Xは 5、Yは 10 です',
    'x: int と書きます',
    'xのあたいは 3',
    '@500円の教材です',
    '@property や @media は次回説明します',
    '09/12 9/19 9/26 の3回です',
    '01/05 01/12 01/19 01/26 02/02 の5回',
    '01-05 01-12 01-19 01-26',
    '学籍番号 0123-456-789',
    '@ITの記事で読みました',
    '@app.route を使います',
    'LINEは iphone でも使えます',
    'ラインは2pxにします',
    'いちご狩りに行きました',
    '0.1 0.2 0.3 0.4 0.5 と増えていきます',
    '0 1 2 3 4 5 6 7 8 9 と数えます',
    'ぜろ、いち、に、さん、し、ご、ろく、なな、はち、きゅう',
    'いち、に、さん、しでジャンプ！',
    'ごはんを食べてから、にこにこ参加しました',
    '九九の七の段と八の段を練習しました',
    '角度は 0 45 90 135 180 度です',
    '0 5 10 15 20 と数えます',
    'フィボナッチ: 0, 1, 1, 2, 3, 5, 8, 13, 21',
    '2の段 0 2 4 6 8 10 12 14',
    '3の段 0 3 6 9 12 15 18',
    'スコアは 0 1 0 2 と 3 4 でした',
    '2026年11月21日(土) 10:30〜11:30 第3回',
    '料金は3,000円〜5,000円です',
    '〒150-0001 東京都渋谷区',
    'ドットコム',
    'C#とドットネットを使います',
    'ラインナップを増やしました',
    'アットホームな教室です',
    'あっという間の60分でした',
    'メールアドレスは登録済みです',
    'IDとパスワードを忘れました',
  ])('does not flag lesson talk: %s', (text) => {
    expect(detectContactInfo(text)).toEqual({ flagged: false, kinds: [] })
  })

  // Written to slip past a filter: characters a reader does not see, and separators a number reads through.
  it.each<[string, ContactKind]>([
    ['090\u200b1234\u200b5678', 'phone'],
    ['090\u20601234\u20605678', 'phone'],
    ['090\u00ad1234\u00ad5678', 'phone'],
    ['090\u200c1234\u200d5678', 'phone'],
    ['0\ufe0f9\ufe0f0\u034f1234\u180e5678', 'phone'],
    ['090\u31641234\u202e5678', 'phone'],
    ['090:1234:5678', 'phone'],
    ['090|1234|5678', 'phone'],
    ['090〜1234〜5678', 'phone'],
    ['090～1234～5678', 'phone'],
    ['090→1234→5678', 'phone'],
    ['090=1234=5678', 'phone'],
    ['090+1234+5678', 'phone'],
    ['090 🍎 1234 🍎 5678', 'phone'],
    ['電話は090:1234:5678 一度かけてね', 'phone'],
    ['〇九〇 1234 5678', 'phone'],
    ['090🍎1234🍎5678', 'phone'],
    // Emoji keycaps from a phone's keyboard, digits with marks on them, circled digits NFKC keeps.
    ['電話は0️⃣9️⃣0️⃣-1️⃣2️⃣3️⃣4️⃣-5️⃣6️⃣7️⃣8️⃣', 'phone'],
    ['0️⃣9️⃣0️⃣1️⃣2️⃣3️⃣4️⃣5️⃣6️⃣7️⃣8️⃣', 'phone'],
    ['0\u03329\u03320\u0332-1234-5678', 'phone'],
    ['0\u03019\u03010\u0301 1\u03012\u03013\u03014\u0301 5678', 'phone'],
    ['⓿❾⓿-❶❷❸❹-❺❻❼❽', 'phone'],
    ['⓿➈⓿ ➀➁➂➃ ➄➅➆➇', 'phone'],
    ['⓿➒⓿-➊➋➌➍-➎➏➐➑', 'phone'],
    ['taro\u200b@\u200bexample\u200b.com', 'email'],
    ['LINE ID: ta\u200bro99', 'line'],
    ['@ha\u200bnako_12', 'sns'],
  ])('flags %j hidden from the eye (%s)', (text, kind) => {
    expect(kinds(text)).toContain(kind)
  })

  it.each([
    '09:00〜10:00、13:00〜14:00',
    '時間は9:00~10:30です',
    '10:30→11:30 に変更です',
    '縦横の比は 3:2 です',
    '1+2+3+4 = 10',
    '0:00〜0:30',
    '楽しかったです😊 また 10:30 からよろしくお願いします🙏',
    '次回 2026/02/07 14:00 一緒にやりましょう',
    '2026/02/07 14:00 参加希望です',
    '2026-02-07 14:00 一年生の部',
    '14:00〜15:00 / 15:30〜16:30\n参加',
    '日時：2025/01/15 09:30\n参加者は2名です',
    'がんばりました\u200b！',
    '❶ 準備 ❷ 実践 ❸ ふりかえり',
    '手順は➀から➉まであります',
    'ガ\u3099ンバって！ café でお話ししましょう',
  ])('still does not flag lesson talk with those separators: %s', (text) => {
    expect(detectContactInfo(text)).toEqual({ flagged: false, kinds: [] })
  })

  it('answers at once for a message of 2,000 spaces or other repeated fillers (no backtracking blow-up)', () => {
    // Before, 'a' + 200 spaces + 'b' took 4.5 s and 2,000 spaces hours: the server (or the composer's tab) froze.
    const started = performance.now()
    for (const filler of [
      ' ',
      '\n',
      '\t',
      '　',
      '-',
      '.',
      '_',
      'の',
      '@',
      ' at ',
      ' dot ',
      '0 ',
      '(',
      '「',
      'は',
      ':',
    ])
      for (const [a, b] of [
        ['a', 'b'],
        ['abc', 'ライン'],
        ['line', 'id'],
        ['0', '1'],
      ])
        detectContactInfo(a + filler.repeat(Math.floor(1998 / filler.length)) + b)
    // Generous for a slow CI machine: the old pattern needed hours for one of these.
    expect(performance.now() - started).toBeLessThan(5_000)
    expect(detectContactInfo(`hanako_123${' '.repeat(1500)}というインスタアカウント`).kinds).toEqual(['sns'])
  })

  it('names what was found', () => {
    expect(contactKindsLabel(kinds('090-1234-5678 taro@example.com'))).toBe('電話番号・メールアドレス')
    expect(contactKindsLabel(kinds('インスタは hanako.mama です'))).toBe('SNSのID')
  })
})
