import { createFileRoute, Link, Outlet } from '@tanstack/react-router'
import { UnlessErrored } from '~/components/layouts/errored-page-layout'
import { MagazineLayout } from '~/components/layouts/magazine-layout'
import { AccountControls } from '~/features/auth/account-controls'
import { FuriganaToggle } from '~/features/furigana/furigana-toggle'

export const Route = createFileRoute('/_magazine')({
  // The header and footer of nearly every page ship in the entry, not in a chunk of their own (0008).
  codeSplitGroupings: [],
  component: MagazineRoute,
})

function MagazineRoute() {
  return (
    <UnlessErrored>
      <MagazineLayout
        headerActions={
          <>
            <FuriganaToggle />
            <AccountControls />
          </>
        }
        masthead={
          <Link to="/magazine" className="text-sm font-bold text-base-ink underline">
            記事一覧
          </Link>
        }
      >
        <Outlet />
      </MagazineLayout>
    </UnlessErrored>
  )
}
