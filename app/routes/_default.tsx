import { createFileRoute, Outlet } from '@tanstack/react-router'
import { DefaultLayout } from '~/components/layouts/default-layout'
import { AccountControls } from '~/features/auth/account-controls'

export const Route = createFileRoute('/_default')({
  component: () => (
    <DefaultLayout headerActions={<AccountControls />}>
      <Outlet />
    </DefaultLayout>
  ),
})
