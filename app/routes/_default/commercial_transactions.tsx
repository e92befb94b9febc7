import { createFileRoute } from '@tanstack/react-router'
import { FactTable, StaticPage } from '~/components/ui/static-page'
import { pageHead } from '~/lib/seo'
import { appConfig } from '../../../app.config'

export const Route = createFileRoute('/_default/commercial_transactions')({
  head: ({ match }) =>
    pageHead(match, {
      title: '特定商取引法に基づく表記',
      description: 'まなびのたねの特定商取引法に基づく表記です。',
    }),
  component: CommercialTransactionsPage,
})

function CommercialTransactionsPage() {
  return (
    <StaticPage title="特定商取引法に基づく表記">
      <FactTable
        rows={[
          ['販売事業者', 'まなびのたね運営事務局'],
          ['運営責任者', '種田 まなぶ'],
          ['所在地', '〒100-0005 東京都千代田区丸の内一丁目（デモ用の架空の住所です）'],
          [
            '連絡先',
            <span key="c">
              メール：<a href={`mailto:${appConfig.contactEmail}`}>{appConfig.contactEmail}</a>
              <br />
              電話番号はご請求があれば遅滞なく開示します。
            </span>,
          ],
          ['販売価格', '各クラスのページに表示する金額（税込）。会員登録料・月額基本料は無料です。'],
          ['商品代金以外の必要料金', 'インターネット接続に必要な通信料はお客さまのご負担となります。'],
          ['支払方法', 'クレジットカード決済'],
          ['支払時期', '予約の確定時にお支払いいただきます。'],
          [
            '提供時期',
            '予約した日時に、オンラインでクラスを提供します。受講用のリンクは開始15分前から表示されます。',
          ],
          [
            'キャンセル・返金',
            'クラス開始の24時間前までのキャンセルは全額返金します。それ以降のキャンセルは返金できません。先生の都合による中止の場合は全額返金します。',
          ],
          ['動作環境', 'スマートフォン・タブレット・パソコンの最新のブラウザ'],
        ]}
      />
    </StaticPage>
  )
}
