import '@tanstack/react-start/server-only'
import sanitizeHtml from 'sanitize-html'

/**
 * Magazine bodies are stored sanitized; they are sanitized again here, on the server, right before they are
 * rendered as HTML (defence in depth: a row written by another tool or an old version stays harmless).
 * Only simple article markup survives; links keep http(s)/mailto targets and open safely.
 */
export function sanitizeArticleHtml(html: string): string {
  return sanitizeHtml(html, {
    allowedTags: ['p', 'h2', 'h3', 'h4', 'ul', 'ol', 'li', 'strong', 'em', 'b', 'i', 'a', 'blockquote', 'br'],
    // target/rel are set by transformTags below (whatever the input said).
    allowedAttributes: { a: ['href', 'title', 'target', 'rel'] },
    allowedSchemes: ['http', 'https', 'mailto'],
    allowProtocolRelative: false,
    disallowedTagsMode: 'discard',
    transformTags: {
      a: (tagName, attribs) => {
        const { target: _target, rel: _rel, ...rest } = attribs
        const external = /^https?:\/\//i.test(rest.href ?? '')
        return {
          tagName,
          attribs: external ? { ...rest, target: '_blank', rel: 'noopener noreferrer nofollow' } : rest,
        }
      },
    },
  })
}
