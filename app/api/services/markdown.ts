import { Marked, type Token } from 'marked'
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

/**
 * A notice's words without its Markdown, one block per line: what a mail's excerpt shows (`**重要**` read as
 * 重要). Raw HTML and images are dropped, as on the page; a link keeps its text.
 */
export function noticePlainText(markdown: string): string {
  const lines: string[] = []
  let line = ''
  const flush = () => {
    if (line.trim()) lines.push(line.trim())
    line = ''
  }
  const inline = (tokens: Token[]) => {
    for (const t of tokens) {
      if (t.type === 'br') flush()
      else if (t.type === 'html' || t.type === 'image') continue
      else if ('tokens' in t && t.tokens) inline(t.tokens)
      else if ('text' in t && typeof t.text === 'string') line += t.text
    }
  }
  const blocks = (tokens: Token[]) => {
    for (const t of tokens) {
      if (t.type === 'list')
        for (const item of t.items as Token[]) blocks((item as { tokens: Token[] }).tokens)
      else if (t.type === 'blockquote') blocks(t.tokens ?? [])
      else if (t.type === 'html' || t.type === 'space' || t.type === 'hr') continue
      else if ('tokens' in t && t.tokens) inline(t.tokens)
      else if ('text' in t && typeof t.text === 'string') line += t.text
      flush()
    }
  }
  blocks(marked.lexer(markdown))
  return lines.join('\n')
}
