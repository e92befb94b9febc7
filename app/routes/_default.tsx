import { createFileRoute, Outlet } from '@tanstack/react-router'
import { DefaultLayout } from '~/components/layouts/default-layout'

export const Route = createFileRoute('/_default')({
  component: () => (
    <DefaultLayout>
      <Outlet />
    </DefaultLayout>
  ),
})
