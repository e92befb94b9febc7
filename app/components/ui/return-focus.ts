import { useRef } from 'react'

/**
 * Props for a Radix Dialog.Content opened from code (no Dialog.Trigger): Radix then has nothing to give the focus
 * back to on close, and it falls to the page. This keeps what had the focus when the dialog opened (the button
 * that opened it) and returns it there, as a keyboard or screen-reader user expects.
 */
export function useReturnFocus() {
  const opener = useRef<HTMLElement | null>(null)
  return {
    onOpenAutoFocus: () => {
      opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null
    },
    onCloseAutoFocus: (e: Event) => {
      if (!opener.current?.isConnected) return
      e.preventDefault()
      opener.current.focus()
    },
  }
}
