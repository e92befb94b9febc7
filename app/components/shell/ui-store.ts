import { Store } from '@tanstack/react-store'
import { appConfig } from '../../../app.config'
import { escapeHtml } from '../../lib/escape-html'
import type { IconName } from '../ui/icon'

/**
 * Client UI state of the app shell (the original app's global store): loading keys, snackbar, menu, login modal.
 * Only event handlers and effects change it, so server rendering always sees the initial state.
 */

export type SnackbarState = {
  /**
   * Which message this is: each showSnackbar starts a new one, with a timer of its own (the snackbar is keyed by
   * it), so a message that replaces an open one is not closed by the earlier one's timer.
   */
  id: number
  show: boolean
  /** HTML (spec: the message may contain it), sanitized before it is rendered; see SnackbarContent. */
  message: string
  icon: IconName
  color: 'base' | 'purple' | 'yellow' | 'red'
  timer: number
  hasError: boolean
  hasAction: boolean
}

export type LoadingState = {
  keys: string[]
  message: string
  transparent: boolean
}

export type UiState = {
  loading: LoadingState
  snackbar: SnackbarState
  menuOpen: boolean
  loginModalOpen: boolean
  /** Where the login modal's 'ログイン' returns to; the current page when unset. */
  loginReturnTo: string | undefined
}

export const APP_LOAD_KEY = 'appLoad'
export const PAGE_LOADING_KEY = 'pageLoading'
export const DEFAULT_LOADING_MESSAGE = 'Loading'

export const defaultSnackbar = (): SnackbarState => ({
  id: 0,
  show: false,
  message: '',
  icon: 'check-circle',
  color: 'base',
  timer: appConfig.timing.snackbarTimer,
  hasError: false,
  hasAction: false,
})

export const initialUiState = (): UiState => ({
  // The app starts under the appLoad key; it is released once the user is known.
  loading: { keys: [APP_LOAD_KEY], message: DEFAULT_LOADING_MESSAGE, transparent: false },
  snackbar: defaultSnackbar(),
  menuOpen: false,
  loginModalOpen: false,
  loginReturnTo: undefined,
})

export const uiStore = new Store<UiState>(initialUiState())

export function startLoading(key: string, opts: { message?: string; transparent?: boolean } = {}) {
  uiStore.setState((s) => ({
    ...s,
    loading: {
      keys: s.loading.keys.includes(key) ? s.loading.keys : [...s.loading.keys, key],
      message: opts.message ?? DEFAULT_LOADING_MESSAGE,
      transparent: opts.transparent ?? false,
    },
  }))
}

export function stopLoading(key: string) {
  uiStore.setState((s) => {
    if (!s.loading.keys.includes(key)) return s
    const keys = s.loading.keys.filter((k) => k !== key)
    return {
      ...s,
      loading: keys.length
        ? { ...s.loading, keys }
        : { keys, message: DEFAULT_LOADING_MESSAGE, transparent: false },
    }
  })
}

export function isLoading(state: UiState): boolean {
  return state.loading.keys.length > 0
}

/**
 * What a snackbar shows: `message` is text (escaped here, so a title or name from the server shows as its
 * characters, never as markup); `html` is markup the app wrote itself, with any text in it already escaped.
 */
export type SnackbarContent = { message: string; html?: never } | { html: string; message?: never }

export type SnackbarInput = Partial<Omit<SnackbarState, 'show' | 'id' | 'message'>> & SnackbarContent

let lastSnackbarId = 0

export function showSnackbar({ message, html, ...style }: SnackbarInput) {
  const id = ++lastSnackbarId
  const content = html ?? escapeHtml(message ?? '')
  uiStore.setState((s) => ({
    ...s,
    snackbar: { ...defaultSnackbar(), ...style, message: content, id, show: true },
  }))
}

/** Error snackbars use the red alert style and stay until closed (spec §4). A string is text, as `message`. */
export function showErrorSnackbar(content: string | { html: string }) {
  const text = typeof content === 'string' ? { message: content } : content
  showSnackbar({ ...text, hasError: true, color: 'red', icon: 'alert' })
}

/** Closes the message on screen; a later one's close leaves it alone (the message it was called for is gone). */
export function closeSnackbar(id?: number) {
  uiStore.setState((s) =>
    id !== undefined && id !== s.snackbar.id
      ? s
      : { ...s, snackbar: { ...defaultSnackbar(), id: s.snackbar.id } },
  )
}

export function setMenuOpen(open: boolean) {
  uiStore.setState((s) => (s.menuOpen === open ? s : { ...s, menuOpen: open }))
}

export function openLoginModal(returnTo?: string) {
  uiStore.setState((s) => ({ ...s, loginModalOpen: true, loginReturnTo: returnTo }))
}

export function closeLoginModal() {
  uiStore.setState((s) => ({ ...s, loginModalOpen: false, loginReturnTo: undefined }))
}

/** Test helper: back to the state the app starts with. */
export function resetUiStore() {
  uiStore.setState(() => initialUiState())
}
