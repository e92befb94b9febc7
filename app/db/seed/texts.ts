/** Operator notices (お知らせ). `daysAgo` < 0 is scheduled and not yet visible. */
export const noticeSeeds: { title: string; body: string; daysAgo: number }[] = [
  {
    title: 'まなびのたねへようこそ',
    body: 'まなびのたねをご利用いただきありがとうございます。\n気になるクラスは「お気に入り」に、好きな先生は「フォロー」に登録しておくと、新しいクラスを見逃しません。',
    daysAgo: 40,
  },
  {
    title: 'メッセージ機能のご利用にあたってのお願い',
    body: '安全にご利用いただくため、メッセージで電話番号・メールアドレス・外部SNSのIDなどを交換することはご遠慮ください。\n授業に関するやりとりは、まなびのたねのメッセージ機能をご利用ください。',
    daysAgo: 30,
  },
  {
    title: '新しいカテゴリ「陶芸」を追加しました',
    body: '粘土セットがご自宅に届く、オンラインの陶芸クラスが始まりました。親子で参加できるクラスもあります。',
    daysAgo: 21,
  },
  {
    title: 'システムメンテナンスのお知らせ',
    body: 'サービス向上のため、メンテナンスを実施しました。メンテナンス中はご不便をおかけしました。',
    daysAgo: 12,
  },
  {
    title: 'キャンセルポリシーについて',
    body: '予約のキャンセルは、授業開始の24時間前まで可能です（全額返金）。\n先生の都合で授業が中止になった場合は、全額返金いたします。',
    daysAgo: 5,
  },
  {
    title: '春の新クラス特集を公開しました',
    body: '新学期に向けて、はじめての方にもおすすめのクラスを集めました。マガジンの特集記事もあわせてご覧ください。',
    daysAgo: 1,
  },
  {
    title: '（予告）ポイント機能の提供開始について',
    body: '近日中にポイント機能の提供を開始します。詳細は決まりしだいお知らせします。',
    daysAgo: -3,
  },
]

/**
 * Message threads. `from` is 'teacher' or 'member'; `hoursAgo` places the message before `now`.
 * `memberRead`/`teacherRead`: how many of the messages each side has read (the rest are unread).
 */
export interface ThreadSeed {
  teacher: string
  member: string
  messages: { from: 'teacher' | 'member'; body: string; hoursAgo: number }[]
  memberRead: number
  teacherRead: number
}

export const threadSeeds: ThreadSeed[] = [
  {
    teacher: 'kenta',
    member: 'parent',
    memberRead: 4,
    teacherRead: 5,
    messages: [
      {
        from: 'member',
        hoursAgo: 150,
        body: 'はじめまして。たろうの母です。Scratchのクラスを予約しました。パソコンはWindowsでも大丈夫でしょうか？',
      },
      {
        from: 'teacher',
        hoursAgo: 148,
        body: 'はじめまして、けんたです。ご予約ありがとうございます！Windowsでも問題ありません。ブラウザはChromeかEdgeの最新版をご用意ください。',
      },
      { from: 'member', hoursAgo: 146, body: 'ありがとうございます。マウスも用意しておきます。' },
      {
        from: 'teacher',
        hoursAgo: 120,
        body: '当日はゲームのキャラクターを一緒に決めるところから始めます。たろうくんの好きな動物を考えておいてもらえるとうれしいです。',
      },
      {
        from: 'teacher',
        hoursAgo: 3,
        body: '前回の作品、とてもよくできていました！次回は得点をつけるしくみに挑戦しましょう。',
      },
    ],
  },
  {
    teacher: 'emily',
    member: 'parent',
    memberRead: 3,
    teacherRead: 3,
    messages: [
      {
        from: 'member',
        hoursAgo: 90,
        body: 'さくらの英語の絵本クラスについて質問です。3歳でも参加できますか？',
      },
      {
        from: 'teacher',
        hoursAgo: 88,
        body: 'はい、大丈夫です！絵本を見ながら、聞いて楽しむだけでも十分ですよ。',
      },
      { from: 'member', hoursAgo: 80, body: 'よかったです。次回参加させていただきます。' },
    ],
  },
  {
    teacher: 'takahashi',
    member: 'parent',
    memberRead: 0,
    teacherRead: 1,
    messages: [
      {
        from: 'teacher',
        hoursAgo: 20,
        body: 'ふしぎ実験教室へのご参加ありがとうございました。次回は紫キャベツを使うので、ご用意いただけると助かります。',
      },
    ],
  },
  {
    teacher: 'kenta',
    member: 'member-01',
    memberRead: 2,
    teacherRead: 0,
    messages: [
      {
        from: 'member',
        hoursAgo: 30,
        body: '分数のクラスについて相談させてください。通分でいつもつまずいてしまいます。',
      },
      {
        from: 'member',
        hoursAgo: 29,
        body: '1対1のクラスで、通分だけを重点的に見ていただくことはできますか？',
      },
    ],
  },
  {
    teacher: 'kenta',
    member: 'member-03',
    memberRead: 2,
    teacherRead: 2,
    messages: [
      {
        from: 'member',
        hoursAgo: 200,
        body: 'Pythonのクラス、とても楽しかったそうです。家でも続けています。',
      },
      {
        from: 'teacher',
        hoursAgo: 190,
        body: 'うれしいお知らせをありがとうございます！次は関数を使った模様づくりに挑戦しましょう。',
      },
    ],
  },
  {
    teacher: 'misaki',
    member: 'member-05',
    memberRead: 1,
    teacherRead: 2,
    messages: [
      { from: 'member', hoursAgo: 60, body: '英文法のクラスで使うテキストはありますか？' },
      { from: 'teacher', hoursAgo: 58, body: '授業の前日にPDFをお送りします。印刷しなくても大丈夫です。' },
    ],
  },
  longThread(),
]

/**
 * The demo parent's child sends a history teacher a self-study note every day or so, and the teacher answers each:
 * 240 messages over the last 80 days (inside the demo accounts' lifetime), more than a room shows at once, so the
 * demo pages back with 以前のメッセージを表示.
 */
function longThread(): ThreadSeed {
  const eras = [
    '縄文時代',
    '弥生時代',
    '古墳時代',
    '飛鳥時代',
    '奈良時代',
    '平安時代',
    '鎌倉時代',
    '室町時代',
    '戦国時代',
    '江戸時代',
    '明治時代',
    '大正時代',
  ]
  const notes = 120
  const messages: ThreadSeed['messages'] = []
  for (let w = 0; w < notes; w++) {
    const era = eras[w % eras.length]!
    const hoursAgo = 120 + (notes - w) * 15
    messages.push(
      {
        from: 'member',
        hoursAgo,
        body: `第${w + 1}回（${era}）の自習ノートを送ります。年表を見ながらまとめました。`,
      },
      {
        from: 'teacher',
        hoursAgo: hoursAgo - 2,
        body: `第${w + 1}回もよくまとまっています。次は${eras[(w + 1) % eras.length]}のくらしを調べてみましょう。`,
      },
    )
  }
  return {
    teacher: 'kato',
    member: 'parent',
    memberRead: messages.length,
    teacherRead: messages.length,
    messages,
  }
}
