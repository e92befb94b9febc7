import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import ts from 'typescript'
import { afterAll, describe, expect, it } from 'vitest'
import { analyze, stopAnalyzer } from '../jobs/analyzer.server'
import fixed from './furigana-fixed.json'
import { hasKanji, hasReadings, type Ruby, rubyText } from './ruby'

/**
 * The readings of the site's fixed texts (furigana mode, docs/decisions/0028) are generated from the source: every
 * string with kanji in a file that renders <Ruby> (or says `@furigana-fixed`). This test regenerates them with the
 * analyser and fails when app/lib/furigana-fixed.json differs; `npm run furigana:fixed` writes the file.
 */

const appDir = join(__dirname, '..')
const jsonPath = join(__dirname, 'furigana-fixed.json')

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name)
    if (e.isDirectory()) return sourceFiles(path)
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) && !e.name.endsWith('.gen.ts')
      ? [path]
      : []
  })
}

/** JSX text as React renders it: lines trimmed, blank lines dropped, the rest joined by a space. */
const jsxText = (raw: string) =>
  raw
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .join(' ')

function fixedTexts(): { texts: string[]; files: string[] } {
  const texts = new Set<string>()
  const files: string[] = []
  for (const file of sourceFiles(appDir)) {
    const source = readFileSync(file, 'utf8')
    if (!/from '[^']*ui\/ruby'/.test(source) && !source.includes('@furigana-fixed')) continue
    if (file.endsWith(join('ui', 'ruby.tsx'))) continue
    files.push(relative(appDir, file))
    const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX)
    const visit = (node: ts.Node) => {
      let text: string | undefined
      if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) text = node.text
      else if (ts.isJsxText(node)) text = jsxText(node.text)
      if (text && text.length >= 2 && text.length <= 400 && hasKanji(text)) texts.add(text)
      ts.forEachChild(node, visit)
    }
    visit(sf)
  }
  return { texts: [...texts].sort(), files: files.sort() }
}

/** One text per line: a change of copy shows as a one-line diff. */
const asJson = (map: Record<string, Ruby>) =>
  `{\n${Object.entries(map)
    .map(([k, v]) => `  ${JSON.stringify(k)}: ${JSON.stringify(v)}`)
    .join(',\n')}\n}\n`

afterAll(() => stopAnalyzer())

describe('furigana of the fixed texts', () => {
  it('app/lib/furigana-fixed.json is up to date (npm run furigana:fixed)', async () => {
    const { texts, files } = fixedTexts()
    expect(files).toEqual(expect.arrayContaining(['components/shell/nav.ts', 'routes/_default/index.tsx']))
    const read = await analyze(texts)
    const generated: Record<string, Ruby> = {}
    texts.forEach((t, i) => {
      const ruby = read[i] as Ruby
      if (hasReadings(ruby)) generated[t] = ruby
    })
    for (const [t, ruby] of Object.entries(generated)) expect(rubyText(ruby)).toBe(t)
    if (process.env.UPDATE_FURIGANA_FIXED === '1') writeFileSync(jsonPath, asJson(generated))
    else expect(fixed, 'run npm run furigana:fixed').toEqual(generated)
  }, 30_000)
})
