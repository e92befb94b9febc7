import '@tanstack/react-start/server-only'
import { LRUCache } from 'lru-cache'
import sanitizeHtml from 'sanitize-html'

/**
 * Magazine bodies are stored sanitized; they are sanitized again here, on the server, right before they are
 * rendered as HTML (defence in depth: a row written by another tool or an old version stays harmless).
 * Only simple article markup survives; links keep http(s)/mailto targets and open safely.
 * A body is sanitized once per process, not on every page view: the result depends only on the body's text, so it is
 * kept by that text (docs/decisions/0026).
 */
export function sanitizeArticleHtml(html: string): string {
  let clean = sanitized.get(html)
  if (clean === undefined) {
    clean = sanitize(html)
    sanitized.set(html, clean)
  }
  return clean
}

const sanitized = new LRUCache<string, string>({
  maxSize: 16 * 1024 * 1024,
  sizeCalculation: (clean, html) => html.length + clean.length || 1,
})

function sanitize(html: string): string {
  return sanitizeHtml(html, {
    // A superset of what notices store (renderNoticeMarkdown): notices are shown through this sanitizer too.
    allowedTags: [
      'p',
      'h2',
      'h3',
      'h4',
      'ul',
      'ol',
      'li',
      'strong',
      'em',
      'b',
      'i',
      'a',
      'blockquote',
      'br',
      'code',
    ],
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
