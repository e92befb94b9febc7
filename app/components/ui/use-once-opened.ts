import { useRef } from 'react'

/** True once `open` has been true: an on-demand overlay mounts then and stays mounted to animate closed. */
export function useOnceOpened(open: boolean) {
  const opened = useRef(false)
  if (open) opened.current = true
  return opened.current
}
