import { ClientOnly, createFileRoute } from '@tanstack/react-router'
import { useSelector } from '@tanstack/react-store'
import { uiStore } from '~/components/shell/ui-store'
import { pageHead } from '~/lib/seo'

// Named after the original app's client store (Pinia); shows the client state of the shell.
export const Route = createFileRoute('/_default/test/pinia')({
  head: ({ match }) => pageHead(match, { title: 'テスト：クライアントの状態', noindex: true }),
  component: TestStatePage,
})

function TestStatePage() {
  return (
    <>
      <h1 className="text-xl font-bold">クライアントの状態</h1>
      {/* The state is the browser's (the loading keys change while the page hydrates): rendering it on the server
          would not match the first client render (React #418). */}
      <ClientOnly fallback={<p className="mt-4 text-sm">読み込み中…</p>}>
        <ClientState />
      </ClientOnly>
    </>
  )
}

function ClientState() {
  const state = useSelector(uiStore)
  return (
    <>
      <dl className="mt-4 grid grid-cols-[10rem_1fr] gap-2 text-sm">
        <dt className="font-bold">loading.keys</dt>
        <dd data-testid="state-loading-keys">{JSON.stringify(state.loading.keys)}</dd>
        <dt className="font-bold">menuOpen</dt>
        <dd data-testid="state-menu">{String(state.menuOpen)}</dd>
        <dt className="font-bold">loginModalOpen</dt>
        <dd data-testid="state-login-modal">{String(state.loginModalOpen)}</dd>
      </dl>
      <h2 className="mt-6 font-bold">snackbar</h2>
      <pre className="mt-2 overflow-x-auto rounded bg-light-grey p-3 text-xs" data-testid="state-snackbar">
        {JSON.stringify(state.snackbar, null, 2)}
      </pre>
    </>
  )
}
