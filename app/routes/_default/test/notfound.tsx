import { createFileRoute, notFound } from '@tanstack/react-router'

/** Shows the page-not-found message exactly as an unknown path does (HTTP 404). */
export const Route = createFileRoute('/_default/test/notfound')({
  loader: () => {
    throw notFound()
  },
})
