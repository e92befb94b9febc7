import { useLocation, useNavigate, useRouteContext } from '@tanstack/react-router'
import { openLoginModal, showErrorSnackbar } from '~/components/shell/ui-store'
import { useViewer } from '~/components/shell/use-viewer'

/**
 * 「先生に質問する」 (issue 16): opens a conversation with the class's teacher before any booking. Nothing is
 * created until the first message is sent (the room comes with it); the usual contact-details check and rate
 * limits apply to what is written.
 */
export function AskTeacherButton({ teacherId, teacherName }: { teacherId: number; teacherName: string }) {
  const viewer = useViewer()
  const myId = useRouteContext({
    from: '__root__',
    select: (c) => (c.auth.status === 'authenticated' ? c.auth.user?.id : undefined),
  })
  const location = useLocation()
  const navigate = useNavigate()
  const onClick = () => {
    if (viewer === 'visitor') return openLoginModal(location.href)
    if (viewer === 'unregistered') return showErrorSnackbar('プロフィールを登録すると先生に質問できます')
    void navigate({ to: '/message', search: { to: teacherId } })
  }
  // A teacher does not ask themselves.
  if (myId === teacherId) return null
  return (
    <button
      type="button"
      className="btn-outline"
      onClick={onClick}
      aria-label={`${teacherName}に質問する`}
      data-testid="ask-teacher"
    >
      先生に質問する
    </button>
  )
}
