import { escapeHtml } from '~/lib/escape-html'

/** The snackbar after joining (it renders HTML): the organisation's name is its owner's text, shown as text. */
export const joinedMessage = (organizationName: string) => `${escapeHtml(organizationName)}に参加しました`
