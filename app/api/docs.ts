import { createHash } from 'node:crypto'

/**
 * A self-contained API reference page. Scalar's page loads its script from a CDN, and the network is closed
 * where this runs, so /v1/docs lists every operation from the OpenAPI document with no external resources.
 */
interface OpenApiDoc {
  info?: { title?: string; version?: string; description?: string }
  paths?: object
}
type Operation = { summary?: string; tags?: string[]; security?: unknown[] }

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)

const methods = ['get', 'post', 'put', 'patch', 'delete']

const DOCS_CSS = `body{font-family:system-ui,-apple-system,"Hiragino Sans","Noto Sans JP",sans-serif;margin:0 auto;max-width:960px;padding:24px;color:#1f2937}
h1{font-size:1.5rem}h2{font-size:1.1rem;margin-top:2rem;border-bottom:1px solid #e5e7eb;padding-bottom:4px}
table{border-collapse:collapse;width:100%}td{padding:6px 8px;border-bottom:1px solid #f3f4f6;vertical-align:top}
code{font-size:.9rem}.m{display:inline-block;min-width:56px;text-align:center;border-radius:4px;font-size:.75rem;font-weight:700;color:#fff;padding:2px 4px}
.get{background:#2563eb}.post{background:#16a34a}.patch{background:#d97706}.put{background:#9333ea}.delete{background:#dc2626}
.auth{font-size:.7rem;background:#fef3c7;color:#92400e;border-radius:4px;padding:1px 6px;margin-left:4px}`

/**
 * The docs page's own Content-Security-Policy: no script at all, and its one stylesheet allowed by its hash.
 */
export const DOCS_CSP = `default-src 'none'; object-src 'none'; style-src 'sha256-${createHash('sha256').update(DOCS_CSS).digest('base64')}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`

export function renderDocsPage(doc: OpenApiDoc, specUrl: string): string {
  const groups = new Map<string, string[]>()
  for (const [path, ops] of Object.entries(doc.paths ?? {}) as [
    string,
    Record<string, Operation | undefined>,
  ][]) {
    for (const method of methods) {
      const op = ops[method]
      if (!op) continue
      const tag = op.tags?.[0] ?? 'other'
      const auth = op.security && op.security.length > 0 ? '<span class="auth">要ログイン</span>' : ''
      const row = `<tr><td><span class="m ${method}">${method.toUpperCase()}</span></td><td><code>${escapeHtml(path)}</code></td><td>${escapeHtml(op.summary ?? '')} ${auth}</td></tr>`
      groups.set(tag, [...(groups.get(tag) ?? []), row])
    }
  }
  const sections = [...groups.entries()]
    .map(([tag, rows]) => `<h2>${escapeHtml(tag)}</h2><table>${rows.join('')}</table>`)
    .join('')
  const title = escapeHtml(doc.info?.title ?? 'API')
  return `<!doctype html>
<html lang="ja"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} リファレンス</title>
<style>${DOCS_CSS}</style></head><body>
<h1>${title} <small>${escapeHtml(doc.info?.version ?? '')}</small></h1>
<p>${escapeHtml(doc.info?.description ?? '')}</p>
<p>OpenAPI 3.1: <a href="${escapeHtml(specUrl)}">${escapeHtml(specUrl)}</a></p>
${sections}
</body></html>`
}
