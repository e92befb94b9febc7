import { describe, expect, it } from 'vitest'
import type { Message } from '~/contract/v1/rooms'
import { earlierThan, slidOut } from './history'

const msg = (id: number, body = `m${id}`): Message => ({
  id,
  room_id: 1,
  sender_id: id % 2 === 0 ? 2 : 3,
  body,
  created_at: new Date(Date.UTC(2026, 0, 1, 0, id)).toISOString(),
  is_mine: id % 2 === 0,
  contains_contact_info: false,
  status: 'visible',
})
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => msg(from + i))
const ids = (list: readonly Message[]) => list.map((m) => m.id)

describe('slidOut', () => {
  it('returns what new messages pushed out of the latest page, oldest first', () => {
    expect(ids(slidOut(range(201, 400), range(204, 403)) ?? [])).toEqual([201, 202, 203])
  })

  it('returns nothing when the page did not move, and null when it moved past all it held', () => {
    expect(slidOut(range(201, 400), range(201, 400))).toEqual([])
    expect(slidOut(range(201, 400), [])).toEqual([])
    // More than a page arrived at once (a tab that slept): the history no longer meets the page.
    expect(slidOut(range(201, 400), range(601, 800))).toBeNull()
    // The page's old first message was removed by an operator, so the page reaches one further back: the pages
    // still meet, and nothing slid out.
    expect(slidOut(range(201, 400), [msg(200), ...range(202, 400)])).toEqual([])
  })
})

describe('earlierThan', () => {
  it('leaves no gap or repeat between the history and the latest page', () => {
    const older = range(1, 200)
    // Three new messages slid 201–203 out of the page; they joined the history.
    const history = [...older, ...(slidOut(range(201, 400), range(204, 403)) ?? [])]
    expect(ids(earlierThan(history, range(204, 403)))).toEqual(ids(range(1, 203)))
  })

  it('lets the latest page win from its first message on (an operator removed a message since)', () => {
    const history = range(1, 10)
    const latest = [msg(9), msg(11)]
    // 9 comes from the page, fresher; 10, removed since, is gone.
    expect(ids(earlierThan(history, latest))).toEqual([1, 2, 3, 4, 5, 6, 7, 8])
  })

  it('shows a message once when it slid out of the page twice (an operator hid one in the page, pulling it back)', () => {
    // m200 slid out and joined the history; a message in the page was hidden, so the page reached back to m200;
    // a new message then pushed m200 out again.
    let history = [...range(1, 199)]
    let page = range(200, 399)
    const step = (next: Message[]) => {
      history = [...history, ...(slidOut(page, next) ?? [])]
      page = next
    }
    step(range(201, 400))
    step([msg(200), ...range(201, 299), ...range(301, 400)])
    step([...range(201, 299), ...range(301, 401)])
    expect(ids(earlierThan(history, page))).toEqual(ids(range(1, 200)))
  })

  it('shows a released message once, where the page has it now (its date moved)', () => {
    const released = { ...msg(5), created_at: msg(30).created_at }
    expect(ids(earlierThan(range(1, 10), [msg(20), released, msg(31)]))).toEqual([1, 2, 3, 4, 6, 7, 8, 9, 10])
  })
})
