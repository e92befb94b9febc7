/** Master lists in display order (sort_order follows the array index). Names are what users see. */
export const masterData = {
  categories: [
    'プログラミング',
    '英語',
    '算数・数学',
    '理科・実験',
    '音楽',
    'アート・工作',
    '将棋・囲碁',
    '国語・作文',
    '社会',
    'ダンス・体操',
    '陶芸',
  ],
  schoolTypes: ['幼稚園・保育園', '小学校', '中学校', '高校', '大学'],
  professions: [
    '会社員',
    '自営業',
    '公務員',
    '教員',
    '講師・インストラクター',
    '学生',
    '主婦・主夫',
    'その他',
  ],
  classStyles: ['1対1', 'グループ', '講義形式'],
  targetGrades: [
    '未就学児',
    '小学1年',
    '小学2年',
    '小学3年',
    '小学4年',
    '小学5年',
    '小学6年',
    '中学1年',
    '中学2年',
    '中学3年',
    '高校1年',
    '高校2年',
    '高校3年',
    '大学生',
  ],
  videoContentStatuses: ['下書き', '審査中', '公開中', '非公開'],
} as const

/** Which school type a target grade belongs to (index into schoolTypes), for learner profiles. */
export function schoolTypeIndexOfGrade(gradeIndex: number): number {
  if (gradeIndex === 0) return 0
  if (gradeIndex <= 6) return 1
  if (gradeIndex <= 9) return 2
  if (gradeIndex <= 12) return 3
  return 4
}
