/**
 * Demo people. The three demo accounts with a profile match PRODUCT.md's table (and the embedded identity
 * provider); `demo|new`, `demo|unverified` and the LINE user deliberately have no row.
 * Other teachers and members use `seed|…` subjects that no identity provider signs in as.
 */

export const DEMO_SUBS = {
  parent: 'demo|parent',
  teacher: 'demo|teacher',
  orgOwner: 'demo|org-owner',
  newUser: 'demo|new',
  unverified: 'demo|unverified',
  line: 'line|U0000000000demo',
  operator: 'demo|operator',
} as const

/** The demo operator (運営): a registered member with the operator role (granted by the seed, as the CLI would). */
export const operatorSeed = {
  sub: DEMO_SUBS.operator,
  email: 'operator@manabi.example',
  nickname: '運営スタッフ',
  name: '中村 真理',
  nameKana: 'ナカムラ マリ',
}

export interface TeacherSeed {
  key: string
  sub: string
  email: string
  nickname: string
  name: string
  nameKana: string
  /** Index into masterData.professions. */
  profession: number
  introduction: string
}

export const teacherSeeds: TeacherSeed[] = [
  {
    key: 'kenta',
    sub: DEMO_SUBS.teacher,
    email: 'teacher@manabi.example',
    nickname: 'けんた先生',
    name: '佐藤 健太',
    nameKana: 'サトウ ケンタ',
    profession: 4,
    introduction:
      'システムエンジニアとして10年働いたあと、子ども向けのプログラミング教室を始めました。\n「できた！」の瞬間を一緒に喜べる授業を大切にしています。算数の苦手克服もお手伝いします。',
  },
  {
    key: 'misaki',
    sub: DEMO_SUBS.orgOwner,
    email: 'owner@manabi.example',
    nickname: 'みさき先生',
    name: '鈴木 美咲',
    nameKana: 'スズキ ミサキ',
    profession: 1,
    introduction:
      'みらいキッズアカデミー代表。英語講師歴15年です。\n小さなお子さんが英語を「好き」になるきっかけ作りを得意としています。',
  },
  {
    key: 'emily',
    sub: 'seed|teacher-emily',
    email: 'emily@manabi.example',
    nickname: 'エミリー先生',
    name: 'ブラウン エミリー',
    nameKana: 'ブラウン エミリー',
    profession: 4,
    introduction: 'カナダ出身、日本在住8年です。英語で話すことの楽しさを、ゲームや会話を通じて伝えています。',
  },
  {
    key: 'takahashi',
    sub: 'seed|teacher-takahashi',
    email: 'takahashi@manabi.example',
    nickname: 'たかはし博士',
    name: '高橋 誠',
    nameKana: 'タカハシ マコト',
    profession: 3,
    introduction:
      '元中学校の理科教員です。「なぜ？」を大切に、身近な材料でできる実験を中心に授業をしています。',
  },
  {
    key: 'ito',
    sub: 'seed|teacher-ito',
    email: 'ito@manabi.example',
    nickname: 'ゆい先生',
    name: '伊藤 結衣',
    nameKana: 'イトウ ユイ',
    profession: 4,
    introduction:
      '音楽大学ピアノ科卒業。3歳から大人まで、ひとりひとりのペースに合わせたレッスンをしています。',
  },
  {
    key: 'watanabe',
    sub: 'seed|teacher-watanabe',
    email: 'watanabe@manabi.example',
    nickname: 'こうじ先生',
    name: '渡辺 浩二',
    nameKana: 'ワタナベ コウジ',
    profession: 1,
    introduction:
      'アマチュア将棋五段、囲碁三段。こども将棋囲碁クラブを主宰しています。礼儀と考える楽しさを伝えます。',
  },
  {
    key: 'yamamoto',
    sub: 'seed|teacher-yamamoto',
    email: 'yamamoto@manabi.example',
    nickname: 'あやこ先生',
    name: '山本 綾子',
    nameKana: 'ヤマモト アヤコ',
    profession: 3,
    introduction:
      '小学校教員を経て、作文と読書の教室を開いています。書くことが苦手な子ほど伸びる授業が自慢です。',
  },
  {
    key: 'nakamura',
    sub: 'seed|teacher-nakamura',
    email: 'nakamura@manabi.example',
    nickname: 'しょう先生',
    name: '中村 翔',
    nameKana: 'ナカムラ ショウ',
    profession: 4,
    introduction: 'ダンス歴20年、キッズダンスの指導は10年目です。体を動かす楽しさを画面越しでも届けます！',
  },
  {
    key: 'kobayashi',
    sub: 'seed|teacher-kobayashi',
    email: 'kobayashi@manabi.example',
    nickname: 'はるか先生',
    name: '小林 遥',
    nameKana: 'コバヤシ ハルカ',
    profession: 1,
    introduction:
      'イラストレーターとして活動しながら、こども絵画教室を開いています。上手よりも「楽しい」を大切に。',
  },
  {
    key: 'kato',
    sub: 'seed|teacher-kato',
    email: 'kato@manabi.example',
    nickname: 'だいすけ先生',
    name: '加藤 大輔',
    nameKana: 'カトウ ダイスケ',
    profession: 3,
    introduction:
      '塾講師歴12年。歴史や地理を「ものがたり」として伝え、社会を好きになってもらうのが目標です。',
  },
  {
    key: 'yoshida',
    sub: 'seed|teacher-yoshida',
    email: 'yoshida@manabi.example',
    nickname: 'とうこ先生',
    name: '吉田 陶子',
    nameKana: 'ヨシダ トウコ',
    profession: 1,
    introduction:
      '益子で工房を営む陶芸家です。土にふれる気持ちよさを、オンラインでも味わってほしいと思っています。',
  },
  {
    key: 'yamaguchi',
    sub: 'seed|teacher-yamaguchi',
    email: 'yamaguchi@manabi.example',
    nickname: 'りょう先生',
    name: '山口 亮',
    nameKana: 'ヤマグチ リョウ',
    profession: 5,
    introduction:
      '大学院で情報科学を研究しています。数学とプログラミングを、つながりのある学びとして教えています。',
  },
]

export interface OrganizationSeed {
  ownerKey: string
  memberKeys: string[]
  kind: 'corporation' | 'group'
  name: string
  representative: string
  url: string | null
  description: string
  invitationCode: string
}

export const organizationSeeds: OrganizationSeed[] = [
  {
    ownerKey: 'misaki',
    memberKeys: ['emily', 'takahashi', 'yamamoto'],
    kind: 'corporation',
    name: '株式会社みらいキッズアカデミー',
    representative: '鈴木 美咲',
    url: 'https://mirai-kids.manabi.example',
    description:
      '英語・理科・国語の専門講師が集まるオンラインスクールです。\n少人数制で、ひとりひとりの「わかった！」を大切にしています。',
    invitationCode: 'MIRAI-7K3Q',
  },
  {
    ownerKey: 'watanabe',
    memberKeys: [],
    kind: 'group',
    name: 'こども将棋囲碁クラブ',
    representative: '渡辺 浩二',
    url: null,
    description: '将棋と囲碁を通して、考える力と礼儀を育てる地域のクラブです。オンライン教室も開いています。',
    invitationCode: 'SHOGI-2B8D',
  },
]

export interface MemberSeed {
  key: string
  sub: string
  email: string
  nickname: string
  name: string
  nameKana: string
  role: 'parent' | 'learner'
  profession?: number
  /** Learner role: index into targetGrades (the school type follows from it). */
  grade?: number
  /** Parent role: learner profiles as [nickname, target grade index]. */
  learners: [string, number][]
}

export const parentSeed: MemberSeed = {
  key: 'parent',
  sub: DEMO_SUBS.parent,
  email: 'parent@manabi.example',
  nickname: 'はなこ',
  name: '山田 花子',
  nameKana: 'ヤマダ ハナコ',
  role: 'parent',
  profession: 0,
  learners: [
    ['たろう', 3],
    ['さくら', 0],
  ],
}

const familyNames: [string, string][] = [
  ['佐々木', 'ササキ'],
  ['松本', 'マツモト'],
  ['井上', 'イノウエ'],
  ['木村', 'キムラ'],
  ['林', 'ハヤシ'],
  ['清水', 'シミズ'],
  ['山崎', 'ヤマザキ'],
  ['森', 'モリ'],
  ['池田', 'イケダ'],
  ['橋本', 'ハシモト'],
  ['阿部', 'アベ'],
  ['石川', 'イシカワ'],
  ['前田', 'マエダ'],
  ['藤田', 'フジタ'],
]

const givenNames: [string, string, string][] = [
  ['恵', 'メグミ', 'めぐみ'],
  ['智子', 'トモコ', 'ともこ'],
  ['健一', 'ケンイチ', 'けんいち'],
  ['真由美', 'マユミ', 'まゆみ'],
  ['翔太', 'ショウタ', 'しょうた'],
  ['直美', 'ナオミ', 'なおみ'],
  ['陽菜', 'ヒナ', 'ひな'],
  ['拓也', 'タクヤ', 'たくや'],
  ['由美子', 'ユミコ', 'ゆみこ'],
  ['大和', 'ヤマト', 'やまと'],
  ['美穂', 'ミホ', 'みほ'],
  ['蓮', 'レン', 'れん'],
  ['裕子', 'ユウコ', 'ゆうこ'],
  ['悠斗', 'ユウト', 'ゆうと'],
]

const childNames = [
  'そうた',
  'ゆな',
  'はると',
  'めい',
  'ひなた',
  'りく',
  'こはる',
  'あおい',
  'ゆうま',
  'さな',
  'いつき',
  'みお',
]

/** Fourteen other members: mostly parents with one or two children, some learners who study on their own. */
export const memberSeeds: MemberSeed[] = familyNames.map(([family, familyKana], i) => {
  const [given, givenKana, givenHira] = givenNames[i]!
  const isLearner = [4, 6, 9, 11, 13].includes(i)
  const n = String(i + 1).padStart(2, '0')
  return {
    key: `member-${n}`,
    sub: `seed|member-${n}`,
    email: `member${n}@manabi.example`,
    nickname: isLearner ? givenHira : `${givenHira}${i % 2 === 0 ? 'さん' : 'ママ'}`,
    name: `${family} ${given}`,
    nameKana: `${familyKana} ${givenKana}`,
    role: isLearner ? 'learner' : 'parent',
    profession: isLearner ? 5 : i % 8,
    grade: isLearner ? 7 + (i % 7) : undefined,
    learners: isLearner
      ? []
      : [
          [childNames[i % childNames.length]!, (i * 3) % 10] as [string, number],
          ...(i % 3 === 0
            ? [[childNames[(i + 5) % childNames.length]!, (i * 5 + 1) % 8] as [string, number]]
            : []),
        ],
  }
})
