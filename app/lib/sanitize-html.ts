import DOMPurify from 'dompurify'

/**
 * Sanitizes a small piece of HTML (snackbar messages) in the browser. On the server there is no DOM,
 * so it returns the text with every tag removed and entities left as they are.
 */
export function sanitizeInlineHtml(html: string): string {
  if (typeof window === 'undefined') return html.replace(/<[^>]*>/g, '')
  return DOMPurify.sanitize(html, {
    ALLOWED_TAGS: ['a', 'b', 'strong', 'em', 'i', 'br', 'span', 'small', 'code'],
    ALLOWED_ATTR: ['href', 'target', 'rel', 'class'],
  })
}
