import { appConfig } from '../../../app.config'

// @furigana-fixed: the labels below are read for furigana mode (app/lib/furigana-fixed.test.ts).

/** Internal links of the shell. Only routes that exist are listed (nothing points at a page not built yet). */
export const mainLinks = [
  { to: '/class_search', label: 'クラスを探す' },
  { to: '/magazine', label: 'マガジン' },
] as const

export const legalLinks = [
  { to: '/company', label: '会社概要' },
  { to: '/terms_of_service', label: '利用規約' },
  { to: '/privacy_policy', label: 'プライバシーポリシー' },
  { to: '/commercial_transactions', label: '特定商取引法に基づく表記' },
] as const

const h = appConfig.helpLinks

/** External help links (spec §9), read from app.config.ts. */
export const helpLinkGroups = [
  {
    title: 'はじめての方へ',
    links: [
      { href: h.guide, label: 'ご利用ガイド' },
      { href: h.faq, label: 'よくある質問' },
      { href: h.news, label: 'お知らせ・ニュース' },
      { href: h.follow, label: 'フォロー機能について' },
    ],
  },
  {
    title: 'お支払い・キャンセル',
    links: [
      { href: h.paymentHelp, label: 'お支払い方法について' },
      { href: h.cancellation, label: 'キャンセルポリシー' },
      { href: h.subscriptionHelp, label: '月額プランについて' },
    ],
  },
  {
    title: '先生向け',
    links: [
      { href: h.commission, label: '手数料について' },
      { href: h.salesReceipt, label: '売上・領収書について' },
      { href: h.paymentDashboard, label: '入金管理ダッシュボード' },
    ],
  },
] as const

export const socialLinks = [
  { href: h.social.x, label: 'X（旧Twitter）' },
  { href: h.social.instagram, label: 'Instagram' },
  { href: h.social.line, label: 'LINE公式アカウント' },
] as const
