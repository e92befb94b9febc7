import { describe, expect, it } from 'vitest'
import { type MailSettings, renderMail } from './mailer.server'
import type { TemplateName, TemplateProps } from './templates'

const settings: MailSettings = {
  siteName: 'まなびのたね',
  siteOrigin: 'https://manabi.example',
  from: 'まなびのたね <no-reply@manabi.example>',
  unsubscribeSecret: 'unit-test-secret-0123456789abcdef0123456789',
}

const lesson = {
  className: 'はじめての将棋',
  startedAt: '2026-12-05T10:00:00.000Z', // 19:00 in Tokyo
  endedAt: '2026-12-05T11:00:00.000Z',
  attendee: 'たろう',
}

/** A ¥3,300 payment's receipt mail, its issuer registered for the invoice system. */
const receipt: TemplateProps<'payment_receipt'> = {
  ...lesson,
  amount: 3300,
  taxAmount: 300,
  receiptNumber: 'R-000012',
  receiptUrl: 'https://manabi.example/purchase_history/receipt/12',
  issuer: { name: 'まなびのたね', registrationNumber: 'T1234567890123' },
}
const renderReceipt = (props: TemplateProps<'payment_receipt'>) =>
  renderMail(settings, {
    messageId: '<x@manabi.example>',
    to: 'parent@manabi.example',
    userId: 7,
    template: 'payment_receipt',
    props,
  })

/** Every template with props, the subject it must have and a line its text must show. */
const cases: { [N in TemplateName]: [TemplateProps<N>, string, string] } = {
  verify_email: [
    { verifyUrl: 'https://manabi.example/idp/verify-email?token=t', expiresHours: 24 },
    'メールアドレスの確認',
    'https://manabi.example/idp/verify-email?token=t',
  ],
  reservation_confirmed: [
    {
      ...lesson,
      price: 0,
      cancelDeadline: '2026-12-04T10:00:00.000Z',
      attendanceUrl: 'https://manabi.example/class_attendance',
    },
    '予約が確定しました：はじめての将棋',
    '料金：無料',
  ],
  reservation_canceled: [
    { ...lesson, refund: 1200, attendanceUrl: 'https://manabi.example/class_attendance' },
    '予約をキャンセルしました：はじめての将棋',
    '返金額：¥1,200',
  ],
  reservation_withdrawn: [
    { ...lesson, refund: 1200 },
    '【予約取消】はじめての将棋',
    '運営の判断により、次の予約を取り消しました。お支払いは全額返金します。',
  ],
  payment_receipt: [receipt, 'お支払いが完了しました（領収書）：はじめての将棋', '登録番号：T1234567890123'],
  refund_completed: [
    { ...lesson, amount: 3300, historyUrl: 'https://manabi.example/purchase_history' },
    '返金が完了しました：はじめての将棋',
    '返金額：¥3,300',
  ],
  schedule_canceled: [
    { ...lesson, refund: 1200, classUrl: 'https://manabi.example/class_search/detail/1' },
    '【開催中止】はじめての将棋',
    '料金は全額返金されます',
  ],
  schedule_moved: [
    {
      ...lesson,
      previousStartedAt: '2026-12-01T10:00:00.000Z',
      previousEndedAt: '2026-12-01T11:00:00.000Z',
      cancelDeadline: '2026-12-04T10:00:00.000Z',
      attendanceUrl: 'https://manabi.example/class_attendance',
    },
    '【日時変更】はじめての将棋',
    '変更前の日時：2026/12/1(火) 19:00',
  ],
  waitlist_moved: [
    {
      ...lesson,
      previousStartedAt: '2026-12-01T10:00:00.000Z',
      previousEndedAt: '2026-12-01T11:00:00.000Z',
      offerExpiresAt: '2026-12-04T22:00:00.000Z',
      classUrl: 'https://manabi.example/class_search/detail/1',
    },
    '【日時変更】キャンセル待ちの授業：はじめての将棋',
    '予約の期限：2026/12/5(土) 07:00まで',
  ],
  waitlist_canceled: [
    { ...lesson, classUrl: 'https://manabi.example/class_search/detail/1' },
    '【開催中止】キャンセル待ちの授業：はじめての将棋',
    'キャンセル待ちは終了しました',
  ],
  teacher_new_reservation: [
    { ...lesson, member: 'はなこ', seatsLeft: 2, manageUrl: 'https://manabi.example/class_management' },
    '新しい予約がありました：はじめての将棋',
    '残席：2席',
  ],
  teacher_reservation_canceled: [
    { ...lesson, member: 'はなこ', manageUrl: 'https://manabi.example/class_management' },
    '予約がキャンセルされました：はじめての将棋',
    'はなこさんが次の予約をキャンセルしました',
  ],
  new_message: [
    { sender: 'けんた先生', roomUrl: 'https://manabi.example/message?room=3' },
    'けんた先生からメッセージが届きました',
    'https://manabi.example/message?room=3',
  ],
  class_announcement: [
    {
      className: 'はじめての将棋',
      title: '持ち物',
      excerpt: '盤と駒をご用意ください',
      url: 'https://manabi.example/information',
    },
    'はじめての将棋からのお知らせ：持ち物',
    '盤と駒をご用意ください',
  ],
  operator_notice: [
    {
      title: '年末年始のお休み',
      excerpt: '12月29日から1月3日まではお問い合わせへの回答をお休みします',
      url: 'https://manabi.example/information/detail/notice-3',
    },
    '【まなびのたね】年末年始のお休み',
    '12月29日から1月3日まで',
  ],
  new_review: [
    {
      className: 'はじめての将棋',
      rating: 4,
      comment: '楽しく学べました',
      reviewer: 'はなこ',
      classUrl: 'https://manabi.example/class_search/detail/1#reviews',
    },
    'レビューが届きました：はじめての将棋',
    '評価：★★★★☆（4）',
  ],
  org_member_changed: [
    {
      organizationName: 'さくら学習会',
      member: 'けんた 先生',
      change: 'left',
      memberCount: 3,
      url: 'https://manabi.example/organization_management',
    },
    '団体から先生が抜けました：さくら学習会',
    'けんた 先生が「さくら学習会」を抜けました。',
  ],
  org_member_removed: [
    {
      nickname: 'けんた',
      organizationName: 'さくら学習会',
      manageUrl: 'https://manabi.example/class_management',
    },
    '団体のメンバーから外れました：さくら学習会',
    'けんたさん、「さくら学習会」のオーナーが、あなたを団体のメンバーから外しました。',
  ],
  org_owner_assigned: [
    {
      nickname: 'けんた',
      organizationName: 'さくら学習会',
      memberCount: 3,
      url: 'https://manabi.example/organization_management',
    },
    '団体のオーナーになりました：さくら学習会',
    'けんたさん、「さくら学習会」のこれまでのオーナーが、団体のオーナーをあなたに譲りました。',
  ],
  request_scheduled: [
    {
      className: 'はじめての将棋',
      startedAt: lesson.startedAt,
      endedAt: lesson.endedAt,
      classUrl: 'https://manabi.example/class_search/detail/1',
    },
    'リクエストしたクラスの日程が決まりました：はじめての将棋',
    '日時：2026/12/5(土) 19:00〜20:00',
  ],
  waitlist_offer: [
    {
      className: 'はじめての将棋',
      startedAt: lesson.startedAt,
      endedAt: lesson.endedAt,
      expiresAt: '2026-12-04T22:00:00.000Z',
      classUrl: 'https://manabi.example/class_search/detail/1',
    },
    'キャンセル待ちの席が空きました：はじめての将棋',
    '予約の期限：2026/12/5(土) 07:00まで',
  ],
  verification_approved: [
    { nickname: 'ゆい', manageUrl: 'https://manabi.example/class_management' },
    '本人確認が完了しました',
    '「本人確認済み」と表示されます',
  ],
  verification_rejected: [
    {
      nickname: 'ゆい',
      reason: '書類の文字が読み取れません',
      retryUrl: 'https://manabi.example/profile/teacher',
    },
    '本人確認を完了できませんでした',
    '理由：書類の文字が読み取れません',
  ],
  account_suspended: [
    { nickname: 'ゆい' },
    'アカウントの利用を停止しました',
    'https://help.manabi.example/contact',
  ],
  account_reinstated: [
    {
      nickname: 'ゆい',
      classesRestored: 2,
      reviewsRestored: 3,
      loginUrl: 'https://manabi.example/',
      manageUrl: 'https://manabi.example/class_management',
    },
    'アカウントの利用停止を解除しました',
    '利用停止で非公開にしたクラス（2件）は下書きに戻しました。',
  ],
  class_hidden: [
    { className: 'はじめての将棋', canceled: 2, refunded: 6600 },
    '【非公開】はじめての将棋',
    '今後の予約2件はキャンセルしました。受講者にはお支払いの全額を返金します。',
  ],
  bank_account_changed: [
    {
      nickname: 'ゆい',
      bankName: 'まなび銀行',
      numberMasked: '＊＊＊5678',
      salesUrl: 'https://manabi.example/sales_management?tab=payouts',
    },
    '振込先口座が登録・変更されました',
    '口座番号：＊＊＊5678',
  ],
  lesson_reminder: [
    { ...lesson, hoursBefore: 1, attendanceUrl: 'https://manabi.example/class_attendance' },
    'まもなく授業が始まります：はじめての将棋',
    '1時間後に授業が始まります',
  ],
}

describe('mail templates', () => {
  for (const [name, [props, subject, line]] of Object.entries(cases)) {
    it(`${name}: Japanese subject and text, Tokyo times, the site's footer`, async () => {
      const mail = await renderMail(settings, {
        messageId: '<x@manabi.example>',
        to: 'parent@manabi.example',
        userId: 7,
        template: name as TemplateName,
        props: props as never,
      })
      expect(mail.subject).toBe(subject)
      expect(mail.text).toContain(line)
      expect(mail.text).toContain('https://manabi.example/notification_settings')
      expect(mail.html).toContain('lang="ja"')
      if ('startedAt' in props) expect(mail.text).toContain('2026/12/5(土) 19:00〜20:00')
      const optional = ![
        'verify_email',
        'schedule_canceled',
        'reservation_withdrawn',
        'schedule_moved',
        'payment_receipt',
        'refund_completed',
        'verification_approved',
        'verification_rejected',
        'account_suspended',
        'account_reinstated',
        'class_hidden',
        'bank_account_changed',
        'org_member_removed',
        'org_owner_assigned',
      ].includes(name)
      expect(mail.text.includes('/unsubscribe?token=7.')).toBe(optional)
      expect('List-Unsubscribe' in mail.headers).toBe(optional)
    })
  }

  it('a course run whose middle lesson moved (the same span) does not show its dates twice', async () => {
    for (const template of ['schedule_moved', 'waitlist_moved'] as const) {
      const same = {
        ...cases[template][0],
        lessonCount: 4,
        previousStartedAt: cases[template][0].startedAt,
        previousEndedAt: cases[template][0].endedAt,
      }
      const mail = await renderMail(settings, {
        messageId: '<x@manabi.example>',
        to: 'parent@manabi.example',
        userId: 7,
        template,
        props: same as never,
      })
      expect(mail.text).not.toContain('変更前の日時')
      expect(mail.text).toContain('変更内容：一部の回の日時')
    }
  })

  it('the reinstatement mail says how many reviews show again, and nothing of reviews when none', async () => {
    const render = (reviewsRestored: number) =>
      renderMail(settings, {
        messageId: '<x@manabi.example>',
        to: 'parent@manabi.example',
        userId: 7,
        template: 'account_reinstated',
        props: { ...cases.account_reinstated[0], reviewsRestored },
      })
    expect((await render(3)).text).toContain(
      '利用停止で非表示にしたレビュー（3件）を、ふたたび表示しています。',
    )
    expect((await render(0)).text).not.toContain('レビュー')
  })

  it('a free class cancelled promises no refund and shows no 返金額 (「返金額 無料」 before)', async () => {
    for (const template of [
      'reservation_canceled',
      'schedule_canceled',
      'reservation_withdrawn',
      'class_hidden',
    ] as const) {
      const mail = await renderMail(settings, {
        messageId: '<x@manabi.example>',
        to: 'parent@manabi.example',
        userId: 7,
        template,
        props: {
          ...lesson,
          refund: 0,
          canceled: 2,
          refunded: 0,
          attendanceUrl: 'https://manabi.example/class_attendance',
          classUrl: 'https://manabi.example/class_search/detail/1',
        } as never,
      })
      expect(mail.text, template).not.toContain('返金')
    }
  })

  it('a seat an operator cancelled tells its teacher so, not that the member cancelled', async () => {
    const mail = await renderMail(settings, {
      messageId: '<x@manabi.example>',
      to: 'teacher@manabi.example',
      userId: 8,
      template: 'teacher_reservation_canceled',
      props: {
        ...lesson,
        member: 'はなこ',
        manageUrl: 'https://manabi.example/class_management',
        byOperator: true,
      },
    })
    expect(mail.text).toContain('運営の判断により、はなこさんの次の予約が取り消されました。')
    expect(mail.text).not.toContain('はなこさんが次の予約をキャンセルしました')
  })

  it('payment_receipt names the issuer recorded with the payment, and a number only when it had one', async () => {
    const registered = await renderReceipt(receipt)
    expect(registered.text).toContain('発行者：まなびのたね')
    expect(registered.text).toContain('登録番号：T1234567890123')
    expect(registered.html).toContain('T1234567890123')
    expect(registered.text).toContain('うち消費税（10%）：¥300')
    const unregistered = await renderReceipt({
      ...receipt,
      issuer: { name: 'まなびのたね', registrationNumber: null },
    })
    expect(unregistered.text).toContain('発行者：まなびのたね')
    expect(unregistered.text).not.toContain('登録番号')
  })

  it('payment_receipt paid after the hold ended, with no seat left, says the money goes back', async () => {
    const mail = await renderReceipt({
      ...receipt,
      receiptUrl: 'https://manabi.example/purchase_history',
      refundedNoSeat: true,
    })
    // The seat may have gone for another reason than a full class (a cancelled lesson, a class taken down).
    expect(mail.subject).toBe('お支払いを返金します：はじめての将棋')
    expect(mail.text).toContain('満席・休講などで予約できなくなったため')
    expect(mail.text).not.toContain('席が埋まったため')
    expect(mail.text).toContain('お支払いは全額返金します')
    // Not a receipt: no issuer.
    expect(mail.text).not.toContain('発行者')
    expect(mail.text).not.toContain('登録番号')
  })

  it('escapes what members typed (no HTML from a nickname or a title)', async () => {
    const mail = await renderMail(settings, {
      messageId: '<x@manabi.example>',
      to: 'parent@manabi.example',
      userId: 7,
      template: 'new_message',
      props: { sender: '<img src=x onerror=alert(1)>', roomUrl: 'https://manabi.example/message?room=3' },
    })
    expect(mail.html).not.toContain('<img src=x')
    expect(mail.html).toContain('&lt;img src=x onerror=alert(1)&gt;')
  })
})
