import { createFileRoute, Outlet } from '@tanstack/react-router'
import { DefaultLayout } from '~/components/layouts/default-layout'
import { SimpleLayout } from '~/components/layouts/simple-layout'
import { useErroredPage } from '~/components/layouts/use-errored-page'
import { AccountControls } from '~/features/auth/account-controls'
import { FuriganaToggle } from '~/features/furigana/furigana-toggle'

export const Route = createFileRoute('/_default')({
  // The header and footer of nearly every page ship in the entry, not in a chunk of their own (0008).
  codeSplitGroupings: [],
  component: DefaultRoute,
})

function DefaultRoute() {
  // An error page has the simple layout (spec §2), whichever page failed.
  if (useErroredPage())
    return (
      <SimpleLayout>
        <Outlet />
      </SimpleLayout>
    )
  return (
    <DefaultLayout
      headerActions={
        <>
          <FuriganaToggle />
          <AccountControls />
        </>
      }
    >
      <Outlet />
    </DefaultLayout>
  )
}
