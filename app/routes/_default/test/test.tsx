import { createFileRoute } from '@tanstack/react-router'
import { showErrorSnackbar, showSnackbar, startLoading, stopLoading } from '~/components/shell/ui-store'
import { pageHead } from '~/lib/seo'

export const Route = createFileRoute('/_default/test/test')({
  head: ({ match }) => pageHead(match, { title: 'テスト：共通部品', noindex: true }),
  component: TestShellPage,
})

function TestShellPage() {
  return (
    <>
      <h1 className="text-xl font-bold">共通部品のテスト</h1>
      <div className="mt-6 flex flex-wrap gap-3">
        <button
          type="button"
          className="btn-primary"
          onClick={() => showSnackbar({ message: '保存しました' })}
        >
          スナックバー
        </button>
        <button
          type="button"
          className="btn-outline"
          onClick={() =>
            showSnackbar({ html: '<strong>太字</strong>のお知らせ<img src=x onerror="window.__xss=1">' })
          }
        >
          HTMLを含むスナックバー
        </button>
        <button
          type="button"
          className="btn bg-red-dark text-white"
          onClick={() => showErrorSnackbar('エラーが発生しました')}
        >
          エラースナックバー
        </button>
        <button
          type="button"
          className="btn-ghost border border-slate-300"
          onClick={() => {
            startLoading('test', { message: '読み込み中です' })
            setTimeout(() => stopLoading('test'), 1500)
          }}
        >
          ローディング表示（1.5秒）
        </button>
      </div>
    </>
  )
}
