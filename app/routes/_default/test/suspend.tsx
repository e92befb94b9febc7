import { createFileRoute } from '@tanstack/react-router'
import { Suspense, use } from 'react'
import { pageHead } from '~/lib/seo'

// A part that waits for something no loader fetched: the server renders its fallback and leaves the part to the
// browser (render-page.server.tsx). Checks that such a page still works and is never shared (hardening.spec).
export const Route = createFileRoute('/_default/test/suspend')({
  head: ({ match }) => pageHead(match, { title: 'テスト：ブラウザで表示する部分', noindex: true }),
  component: TestSuspendPage,
})

// On the server it never settles, as data no loader asked for would not settle within a render to one string.
const shown: Promise<string> =
  typeof window === 'undefined' ? new Promise(() => {}) : Promise.resolve('ブラウザで表示しました')

function TestSuspendPage() {
  return (
    <>
      <h1 className="text-xl font-bold">ブラウザで表示する部分</h1>
      <Suspense fallback={<p className="mt-4 text-sm">読み込み中…</p>}>
        <Shown />
      </Suspense>
    </>
  )
}

function Shown() {
  return (
    <p className="mt-4" data-testid="suspend-part">
      {use(shown)}
    </p>
  )
}
