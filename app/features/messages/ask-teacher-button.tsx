import { useMutation } from '@tanstack/react-query'
import { useLocation, useNavigate, useRouteContext } from '@tanstack/react-router'
import { openLoginModal, showErrorSnackbar } from '~/components/shell/ui-store'
import { useViewer } from '~/components/shell/use-viewer'
import { startRoom } from './messages.functions'

/**
 * 「先生に質問する」 (issue 16): opens the message room with the class's teacher before any booking, then goes
 * there. The usual contact-details check and rate limits apply to what is written.
 */
export function AskTeacherButton({ teacherId, teacherName }: { teacherId: number; teacherName: string }) {
  const viewer = useViewer()
  const myId = useRouteContext({
    from: '__root__',
    select: (c) => (c.auth.status === 'authenticated' ? c.auth.user?.id : undefined),
  })
  const location = useLocation()
  const navigate = useNavigate()
  const open = useMutation({
    mutationFn: () => startRoom({ data: { partner_id: teacherId } }),
    onSuccess: async (result) => {
      if (!result.ok) return showErrorSnackbar(result.message)
      await navigate({ to: '/message', search: { room: result.data.id } })
    },
    onError: () => showErrorSnackbar('メッセージを開けませんでした。時間をおいてもう一度お試しください'),
  })
  const onClick = () => {
    if (viewer === 'visitor') return openLoginModal(location.href)
    if (viewer === 'unregistered') return showErrorSnackbar('プロフィールを登録すると先生に質問できます')
    open.mutate()
  }
  // A teacher does not ask themselves.
  if (myId === teacherId) return null
  return (
    <button
      type="button"
      className="btn-outline"
      onClick={onClick}
      disabled={open.isPending}
      aria-label={`${teacherName}に質問する`}
      data-testid="ask-teacher"
    >
      先生に質問する
    </button>
  )
}
