import { createFileRoute } from '@tanstack/react-router'
import { FactTable, StaticPage } from '~/components/ui/static-page'
import { pageHead } from '~/lib/seo'
import { appConfig } from '../../../app.config'

export const Route = createFileRoute('/_default/company')({
  head: ({ match }) =>
    pageHead(match, {
      title: '会社概要',
      description: 'まなびのたねを運営する、まなびのたね運営事務局の会社概要です。',
    }),
  component: CompanyPage,
})

function CompanyPage() {
  return (
    <StaticPage
      title="会社概要"
      lead="「すべての子どもに、好きなことと出会うきっかけを。」まなびのたねは、住んでいる場所や家庭の事情にかかわらず、子どもが自分に合った先生と出会える場所をつくっています。"
    >
      <FactTable
        rows={[
          ['運営サービス', 'まなびのたね（子ども向けオンライン習いごとのマーケットプレイス）'],
          ['運営', 'まなびのたね運営事務局'],
          ['所在地', '〒100-0005 東京都千代田区丸の内一丁目（デモ用の架空の住所です）'],
          ['設立', '2024年4月'],
          [
            '事業内容',
            'オンライン授業の予約・受講プラットフォームの企画・開発・運営、教育コンテンツの編集・発信',
          ],
          [
            'お問い合わせ',
            <a key="mail" href={`mailto:${appConfig.contactEmail}`}>
              {appConfig.contactEmail}
            </a>,
          ],
        ]}
      />
      <h2>わたしたちが大切にしていること</h2>
      <p>
        子どもが安心して学べることを、何よりも優先します。先生は本人確認を経て顔写真と本名を公開し、メッセージは保護者と先生のあいだでのみやりとりされます。連絡先の交換など、サービスの外へ誘導するやりとりには注意をうながす仕組みを設けています。
      </p>
      <h2>先生とともに</h2>
      <p>
        登録料・月額基本料は無料です。手数料は予約が成立したときにだけいただく仕組みにしており、先生が教えることに集中できる環境づくりを続けています。
      </p>
    </StaticPage>
  )
}
