/**
 * The key a per-address limit counts under: an IPv4 address as it is (an IPv4-mapped IPv6 one as its IPv4), an
 * IPv6 address by its /64 network. One host is usually given a whole /64, so counting its addresses one by one
 * would let it make billions of attempts.
 */
export function addressKey(address: string): string {
  const a = address
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .split('%')[0]!
  const mapped = /^(?:0{0,4}:){0,5}:?ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(a)
  if (mapped) return mapped[1]!
  if (!a.includes(':')) return a
  const [head = '', tail] = a.split('::')
  const front = head ? head.split(':') : []
  const back = tail ? tail.split(':') : []
  const groups =
    tail === undefined
      ? front
      : [...front, ...Array(Math.max(0, 8 - front.length - back.length)).fill('0'), ...back]
  return `${groups
    .slice(0, 4)
    .map((g) => (Number.parseInt(g, 16) || 0).toString(16))
    .join(':')}::/64`
}
