import { createFileRoute } from '@tanstack/react-router'
import { useEffect } from 'react'
import { openLoginModal } from '~/components/shell/ui-store'
import { pageHead } from '~/lib/seo'

export const Route = createFileRoute('/_default/test/login')({
  head: ({ match }) => pageHead(match, { title: 'テスト：ログインモーダル', noindex: true }),
  component: TestLoginPage,
})

function TestLoginPage() {
  useEffect(() => {
    openLoginModal()
  }, [])
  return (
    <>
      <h1 className="text-xl font-bold">ログインモーダルのテスト</h1>
      <p className="mt-2 text-sm">開くとログインモーダルが表示されます。</p>
      <button type="button" className="btn-outline mt-4" onClick={() => openLoginModal()}>
        もう一度開く
      </button>
    </>
  )
}
