import { createFileRoute } from '@tanstack/react-router'
import { OrganizationForm } from '~/features/organization/organization-form'
import { organizationEditQuery } from '~/features/organization/queries'
import { pageHead } from '~/lib/seo'

export const Route = createFileRoute('/_default/_auth/profile_/edit_organization')({
  loader: ({ context }) => context.queryClient.ensureQueryData(organizationEditQuery()),
  head: ({ match }) => pageHead(match, { title: '団体情報の編集', noindex: true }),
  component: OrganizationForm,
})
