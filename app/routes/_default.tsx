import { createFileRoute, Outlet } from '@tanstack/react-router'
import { DefaultLayout } from '~/components/layouts/default-layout'
import { UnlessErrored } from '~/components/layouts/errored-page-layout'
import { AccountControls } from '~/features/auth/account-controls'
import { FuriganaToggle } from '~/features/furigana/furigana-toggle'

export const Route = createFileRoute('/_default')({
  // The header and footer of nearly every page ship in the entry, not in a chunk of their own (0008).
  codeSplitGroupings: [],
  component: DefaultRoute,
})

function DefaultRoute() {
  return (
    <UnlessErrored>
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
    </UnlessErrored>
  )
}
