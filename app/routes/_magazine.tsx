import { createFileRoute, Link, Outlet } from '@tanstack/react-router'
import { MagazineLayout } from '~/components/layouts/magazine-layout'
import { SimpleLayout } from '~/components/layouts/simple-layout'
import { useErroredPage } from '~/components/layouts/use-errored-page'
import { AccountControls } from '~/features/auth/account-controls'
import { FuriganaToggle } from '~/features/furigana/furigana-toggle'

export const Route = createFileRoute('/_magazine')({
  // The header and footer of nearly every page ship in the entry, not in a chunk of their own (0008).
  codeSplitGroupings: [],
  component: MagazineRoute,
})

function MagazineRoute() {
  // An error page has the simple layout (spec §2), whichever page failed.
  if (useErroredPage())
    return (
      <SimpleLayout>
        <Outlet />
      </SimpleLayout>
    )
  return (
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
  )
}
