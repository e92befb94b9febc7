import { createFileRoute } from '@tanstack/react-router'
import { ClassManagementPage, type ClassTab } from '~/features/class-management/class-list'
import { myClassesQuery } from '~/features/class-management/queries'
import { pageHead } from '~/lib/seo'

export const Route = createFileRoute('/_default/_auth/class_management/')({
  validateSearch: (search: Record<string, unknown>): { tab: ClassTab } => ({
    tab: search.tab === 'unpublished' ? 'unpublished' : 'published',
  }),
  loaderDeps: ({ search }) => ({ tab: search.tab }),
  loader: ({ context, deps }) =>
    context.queryClient.ensureQueryData(myClassesQuery(deps.tab === 'published')),
  head: ({ match }) => pageHead(match, { title: 'クラス管理', noindex: true }),
  component: function ClassManagementRoute() {
    const { tab } = Route.useSearch()
    return <ClassManagementPage tab={tab} />
  },
})
