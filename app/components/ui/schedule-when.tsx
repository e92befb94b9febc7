import type { Lesson } from '~/contract/v1/common'
import { formatDateJa, formatScheduleJa } from '~/lib/format'

/**
 * When a schedule takes place: a single lesson as its date and times; a course run (全N回) as its number of lessons
 * and first and last day, with every lesson listed under a disclosure (`list="open"`: always; `"none"`: not at
 * all, for a line inside a label).
 */
export function ScheduleWhen({
  schedule,
  list: mode = 'disclosure',
}: {
  schedule: { started_at: string; ended_at: string; lessons: Lesson[] }
  list?: 'disclosure' | 'open' | 'none'
}) {
  const { lessons } = schedule
  if (lessons.length <= 1)
    return (
      <time dateTime={schedule.started_at}>{formatScheduleJa(schedule.started_at, schedule.ended_at)}</time>
    )
  const first = lessons[0]!
  const last = lessons[lessons.length - 1]!
  const list = <LessonList lessons={lessons} />
  const span = (
    <>
      <span className="mr-1 rounded bg-purple-dark px-1.5 py-0.5 text-xs font-bold text-white">
        全{lessons.length}回
      </span>
      <time dateTime={first.started_at}>{formatDateJa(first.started_at)}</time>〜
      <time dateTime={last.started_at}>{formatDateJa(last.started_at)}</time>
    </>
  )
  if (mode === 'none')
    return (
      <span data-testid="course-run">
        {span}
        <span className="sr-only">（各回の日時は下に表示）</span>
      </span>
    )
  return (
    <div data-testid="course-run">
      {span}
      {mode === 'open' ? (
        list
      ) : (
        <details className="text-sm">
          <summary className="cursor-pointer text-purple-dark underline">各回の日時</summary>
          {list}
        </details>
      )}
    </div>
  )
}

/** Every lesson of a course run, numbered: 第1回 2026/12/5(土) 10:00〜11:00 … */
export function LessonList({ lessons }: { lessons: Lesson[] }) {
  return (
    <ol className="mt-1 grid gap-0.5 text-sm font-normal" data-testid="course-lessons">
      {lessons.map((l, i) => (
        <li key={l.started_at}>
          第{i + 1}回 <time dateTime={l.started_at}>{formatScheduleJa(l.started_at, l.ended_at)}</time>
        </li>
      ))}
    </ol>
  )
}
