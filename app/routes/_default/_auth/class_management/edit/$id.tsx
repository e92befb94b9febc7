import { createFileRoute, notFound } from '@tanstack/react-router'
import { EditClassPage } from '~/features/class-management/edit-class-page'
import { classFormOptionsQuery, ownClassQuery } from '~/features/class-management/queries'
import { parseId } from '~/lib/ids'
import { pageHead } from '~/lib/seo'

export const Route = createFileRoute('/_default/_auth/class_management/edit/$id')({
  loader: async ({ context, params }) => {
    const id = parseId(params.id)
    // A non-numeric id, another teacher's class and an unknown one are all 404.
    if (id === undefined) throw notFound()
    const [cls] = await Promise.all([
      context.queryClient.ensureQueryData(ownClassQuery(id)),
      context.queryClient.ensureQueryData(classFormOptionsQuery()),
    ])
    if (!cls) throw notFound()
    return { id }
  },
  head: ({ match }) => pageHead(match, { title: 'クラスを編集', noindex: true }),
  component: function EditClassRoute() {
    const { id } = Route.useLoaderData()
    return <EditClassPage id={id} />
  },
})
