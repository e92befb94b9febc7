import { createContext, type ReactNode, useContext, useMemo } from 'react'
import type { Ruby as RubySegments } from '~/lib/ruby'

/**
 * Furigana mode (issue 19, docs/decisions/0028). Pages render their texts through <Ruby>: with the mode on and a
 * reading known for the exact text, the text comes out as <ruby> over its kanji; otherwise as it is. Readings come
 * from the server with the page's data (nothing is analysed in the browser), so the first paint already has them.
 */

type Lookup = (text: string) => RubySegments | undefined

interface FuriganaValue {
  on: boolean
  lookup: Lookup
}

const FuriganaContext = createContext<FuriganaValue>({ on: false, lookup: () => undefined })

/** Whether furigana mode is on for this page. */
export const useFuriganaOn = () => useContext(FuriganaContext).on

/**
 * Adds readings to those of the enclosing scopes (the site's fixed texts at the root, a page's content below it).
 * `on` is given once, at the root.
 */
export function FuriganaScope({
  on,
  texts,
  children,
}: {
  on?: boolean
  texts: Readonly<Record<string, RubySegments>> | undefined
  children: ReactNode
}) {
  const parent = useContext(FuriganaContext)
  const value = useMemo<FuriganaValue>(
    () => ({
      on: on ?? parent.on,
      lookup: texts ? (t) => (Object.hasOwn(texts, t) ? texts[t] : parent.lookup(t)) : parent.lookup,
    }),
    [on, parent, texts],
  )
  return <FuriganaContext.Provider value={value}>{children}</FuriganaContext.Provider>
}

/**
 * The segments as ruby elements, in one span: inside a flex container (a button, a link styled as one) the text and
 * its ruby stay one run of text instead of becoming separate flex items.
 */
function RubySpans({ segments }: { segments: RubySegments }) {
  return (
    <span>
      {segments.map((s, i) =>
        typeof s === 'string' ? (
          s
        ) : (
          <ruby key={i}>
            {s[0]}
            <rt>{s[1]}</rt>
          </ruby>
        ),
      )}
    </span>
  )
}

/** A text, with furigana when the mode is on and its reading is known. Pass the text or a string child. */
export function Ruby({ text, children }: { text?: string; children?: string }) {
  const { on, lookup } = useContext(FuriganaContext)
  const value = text ?? children ?? ''
  const segments = on ? lookup(value) : undefined
  return segments ? <RubySpans segments={segments} /> : value
}
