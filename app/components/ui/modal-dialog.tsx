import * as Dialog from '@radix-ui/react-dialog'
import type { ReactNode } from 'react'
import { Icon, type IconName } from './icon'
import { useReturnFocus } from './return-focus'

/** A modal button (spec §3): icon, text, color, disable. */
export type ModalButton = {
  text: string
  icon?: IconName
  color?: 'primary' | 'outline' | 'ghost' | 'danger'
  disable?: boolean
  onClick: () => void
}

const buttonClass = {
  primary: 'btn-primary',
  outline: 'btn-outline',
  ghost: 'btn-ghost',
  danger: 'btn bg-red-dark text-white hover:bg-red',
} as const

export type ModalProps = {
  open: boolean
  onOpenChange: (open: boolean) => void
  title: string
  message?: ReactNode
  buttons: ModalButton[]
  /** When false, clicks outside and Escape do not close it. */
  dismissible?: boolean
  testId?: string
}

/**
 * The shared modal on Radix Dialog. Radix locks page scrolling while it is open and the page keeps
 * its scroll position, so closing returns the reader to where they were. Pages use `Modal` (./modal),
 * which loads this file the first time it opens; a module that is itself loaded on opening (the reservation
 * confirmation) imports this directly, so that its dialog does not wait for a second round trip.
 */
export function ModalDialog(props: ModalProps) {
  const dismissible = props.dismissible ?? true
  const returnFocus = useReturnFocus()
  return (
    <Dialog.Root open={props.open} onOpenChange={props.onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay
          className="fixed inset-0 z-50 bg-black/50"
          data-testid={props.testId && `${props.testId}-overlay`}
        />
        <Dialog.Content
          data-testid={props.testId}
          className="fixed top-1/2 left-1/2 z-50 w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-2xl bg-white p-6 shadow-xl focus:outline-none"
          onPointerDownOutside={(e) => {
            if (!dismissible) e.preventDefault()
          }}
          onInteractOutside={(e) => {
            if (!dismissible) e.preventDefault()
          }}
          onEscapeKeyDown={(e) => {
            if (!dismissible) e.preventDefault()
          }}
          {...returnFocus}
        >
          <Dialog.Title className="text-center text-lg font-bold">{props.title}</Dialog.Title>
          {props.message ? (
            <Dialog.Description className="mt-3 text-center text-sm text-slate-700">
              {props.message}
            </Dialog.Description>
          ) : (
            <Dialog.Description className="sr-only">{props.title}</Dialog.Description>
          )}
          <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-center">
            {props.buttons.map((b) => (
              <button
                key={b.text}
                type="button"
                className={buttonClass[b.color ?? 'primary']}
                disabled={b.disable}
                onClick={b.onClick}
              >
                {b.icon ? <Icon name={b.icon} className="h-5 w-5" /> : null}
                {b.text}
              </button>
            ))}
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  )
}
