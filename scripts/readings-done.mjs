/**
 * Waits until the furigana job has read what the start left unread (the demo seed, or the scale seed's classes): on
 * a fresh embedded database it runs in the server's own process for a minute or more, and the first pages measured
 * would share the CPU with it. It reads in id order, so the newest class is the last (as in query-count.spec).
 * Used by bench:pages and lighthouse before they measure.
 */
export async function readingsDone(origin, ms = 600_000) {
  const [newest] = await fetch(`${origin}/v1/class_works/new_arrivals_by_class?limit=1`).then((r) => r.json())
  const until = Date.now() + ms
  while (Date.now() < until) {
    const res = await fetch(`${origin}/v1/furigana?class_ids=${newest.id}`)
    if (res.ok && Object.keys((await res.json()).texts ?? {}).length > 0) return
    await new Promise((r) => setTimeout(r, 1000))
  }
  throw new Error('the furigana job did not finish')
}
