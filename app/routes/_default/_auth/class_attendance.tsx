import { createFileRoute } from '@tanstack/react-router'
import { AttendancePage } from '~/features/attendance/attendance-page'
import { attendanceQuery } from '~/features/attendance/queries'
import { pageHead } from '~/lib/seo'

export const Route = createFileRoute('/_default/_auth/class_attendance')({
  loader: ({ context }) => context.queryClient.ensureQueryData(attendanceQuery()),
  head: ({ match }) => pageHead(match, { title: '受講クラス', noindex: true }),
  component: AttendancePage,
})
