import { createFileRoute, Outlet } from '@tanstack/react-router'
import { SimpleLayout } from '~/components/layouts/simple-layout'

export const Route = createFileRoute('/_simple')({
  component: () => (
    <SimpleLayout>
      <Outlet />
    </SimpleLayout>
  ),
})
