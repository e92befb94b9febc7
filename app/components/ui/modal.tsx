import { Suspense } from 'react'
import { lazyPart } from '~/components/shell/lazy-part'
import type { ModalProps } from './modal-dialog'
import { useOnceOpened } from './use-once-opened'

export type { ModalButton, ModalProps } from './modal-dialog'

// Radix Dialog with its focus trap and scroll lock is ~14 KB gzip, and a closed modal shows nothing: it loads
// the first time a modal opens, so that pages with a confirm step (class detail) do not ship it on first load.
const ModalDialog = lazyPart(() => import('./modal-dialog').then((m) => ({ default: m.ModalDialog })))

/** The shared modal (spec §3); see ModalDialog. Renders nothing until it has been opened once. */
export function Modal(props: ModalProps) {
  const opened = useOnceOpened(props.open)
  if (!opened) return null
  return (
    <Suspense fallback={null}>
      <ModalDialog {...props} />
    </Suspense>
  )
}
