import { Marked } from 'marked'
import sanitizeHtml from 'sanitize-html'

/**
 * The small, safe Markdown of operator notices (issue 15): paragraphs, line breaks, **bold**, *italic*, lists,
 * quotes, headings (### and below) and http(s) links. Raw HTML, images and every other scheme are dropped. Rendered
 * once when the notice is written (never per request); the result is what the notice page shows.
 */
const marked = new Marked({ gfm: true, breaks: true, async: false })

export function renderNoticeMarkdown(markdown: string): string {
  const html = marked.parse(markdown, { async: false }) as string
  return sanitizeHtml(html, {
    allowedTags: ['p', 'br', 'strong', 'em', 'ul', 'ol', 'li', 'blockquote', 'h3', 'h4', 'a', 'code'],
    allowedAttributes: { a: ['href', 'target', 'rel'] },
    allowedSchemes: ['http', 'https'],
    allowProtocolRelative: false,
    disallowedTagsMode: 'discard',
    // Headings of a notice sit under the page's own h1 and h2.
    transformTags: {
      h1: 'h3',
      h2: 'h3',
      h5: 'h4',
      h6: 'h4',
      a: (tagName, attribs) => ({
        tagName,
        attribs: { href: attribs.href ?? '', target: '_blank', rel: 'noopener noreferrer nofollow' },
      }),
    },
  }).trim()
}
