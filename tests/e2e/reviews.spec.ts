import { expect, test } from '@playwright/test'
import { expectAccessible, gotoReady, login, otherPerson } from './helpers'

/** Reviews (issue 16): a parent reviews an attended lesson, the teacher replies, search sorts by rating. */

const PARENT = 'parent@manabi.example'
const TEACHER = 'teacher@manabi.example'
const CLASS_TITLE = 'はじめてのScratch（スクラッチ）でゲームづくり'

test('a parent reviews an attended lesson, the teacher replies once, and the class page and search show it @pc-only', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000)
  await login(page, PARENT, '/class_attendance')
  await page.getByTestId('tab-past').click()
  const item = page.getByTestId('attendance-item').filter({ hasText: CLASS_TITLE }).first()
  // An attended lesson is labelled by what it is now, not 予約中.
  await expect(item.getByTestId('attendance-status')).toHaveText('受講済み')
  await item.getByTestId('review-open').click()
  const form = item.getByTestId('review-form')
  await form.getByTestId('review-submit').click()
  await expect(form.getByText('評価を選んでください')).toBeVisible()
  await expect(form.getByText('コメントは10文字以上で入力してください')).toBeVisible()
  // A phone number in the comment is refused by the server.
  await form.locator('label', { hasText: '5（とてもよかった）' }).click()
  await expect(form.getByRole('radio', { name: '5（とてもよかった）' })).toBeChecked()
  await form.getByTestId('review-comment').fill('よかったです。090-1234-5678 に連絡ください')
  await form.getByTestId('review-submit').click()
  await expect(form.getByText(/レビューに連絡先やSNSのIDは書けません/)).toBeVisible()
  const comment = `ゲームが完成して大喜びでした ${Date.now().toString(36)}`
  await form.getByTestId('review-comment').fill(comment)
  await expectAccessible(page)
  await form.getByTestId('review-submit').click()
  await expect(page.getByTestId('snackbar')).toContainText('レビューを投稿しました')
  await expect(item.getByTestId('reviewed')).toContainText('★★★★★')

  // The class page shows it first, with the average and the count.
  await item.getByTestId('attendance-class').click()
  await expect(page.getByRole('heading', { level: 1, name: CLASS_TITLE })).toBeVisible()
  const classUrl = page.url()
  const reviews = page.getByTestId('reviews')
  await expect(reviews.getByTestId('review').first()).toContainText(comment)
  await expect(reviews.getByTestId('rating-summary')).toContainText('件のレビュー')
  await expect(page.getByTestId('class-rating')).toBeVisible()
  // The author cannot report their own review; another member could.
  await expect(reviews.getByTestId('review').first().getByTestId('report-review')).toHaveCount(0)
  const jsonLd = (await page.locator('script[type="application/ld+json"]').allTextContents()).join('\n')
  expect(jsonLd).toContain('AggregateRating')
  expect(jsonLd).toContain(comment)

  // The teacher replies once.
  const teacher = await otherPerson(browser, page, TEACHER, new URL(classUrl).pathname)
  // The reviews hydrate when they come into view (0030): the reply form is there from then on.
  await teacher.getByTestId('reviews').scrollIntoViewIfNeeded()
  const mine = teacher.getByTestId('review').filter({ hasText: comment })
  await mine
    .getByTestId('review-reply-input')
    .fill('ご参加ありがとうございました！次はもっと大きなゲームを作りましょう。')
  await mine.getByTestId('review-reply-submit').click()
  await expect(teacher.getByTestId('snackbar')).toContainText('返信しました')
  await expect(mine.getByTestId('review-reply')).toContainText('次はもっと大きなゲームを作りましょう')
  await expect(mine.getByTestId('review-reply-input')).toHaveCount(0)
  await teacher.context().close()

  await page.reload()
  await expect(
    page.getByTestId('review').filter({ hasText: comment }).getByTestId('review-reply'),
  ).toContainText('先生からの返信')

  // Search by rating: the cards come in the order of the Bayesian score, and this class is among them.
  await gotoReady(page, '/class_search?sort=rating')
  const cards = page.getByTestId('class-card')
  await expect(cards.first().getByTestId('class-card-rating')).toBeVisible()
  const ratings = await cards.evaluateAll((els) =>
    els.map((el) => {
      const text = el.querySelector('[data-testid="class-card-rating"]')?.textContent ?? ''
      const m = /([\d.]+)（(\d+)件）/.exec(text)
      return m ? { average: Number(m[1]), count: Number(m[2]) } : null
    }),
  )
  const scores = ratings.map((r) => (r ? (17.5 + r.average * r.count) / (5 + r.count) : 0))
  // Averages are shown rounded to one decimal: allow for that.
  for (let i = 1; i < scores.length; i++) expect(scores[i]!).toBeLessThanOrEqual(scores[i - 1]! + 0.05)
  await page.getByRole('combobox', { name: 'レビューの評価' }).selectOption('4')
  await expect(page).toHaveURL(/rating_min=4/)
  await expect(page.getByTestId('active-filters')).toContainText('★4以上')
  const shown = await page.getByTestId('class-card-rating').allTextContents()
  for (const text of shown) expect(Number(/([\d.]+)（/.exec(text)?.[1])).toBeGreaterThanOrEqual(4)
})

test('a later page of reviews that cannot be read says so, and reads on another try @pc-only', async ({
  page,
}) => {
  // A demo class with more than ten reviews (the seed's reviews are drawn from a fixed generator).
  await gotoReady(page, '/class_search/detail/7')
  const reviews = page.getByTestId('reviews')
  await reviews.scrollIntoViewIfNeeded()
  await expect(page.getByTestId('reviews-area')).toHaveAttribute('data-hydrated', 'true')
  await expect(reviews.getByTestId('review')).toHaveCount(10)
  const reloads: string[] = []
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) reloads.push(frame.url())
  })
  // Every read of the next page fails, the one retry included. A failed server function is not a failed chunk
  // load: the page stays (it was reloaded once, losing what the person had open, until this was told apart).
  await page.route('**/_serverFn/**', (route) =>
    route.request().method() === 'GET'
      ? route.fulfill({ status: 503, contentType: 'text/plain; charset=utf-8', body: '一時的な障害です' })
      : route.continue(),
  )
  await reviews.getByTestId('reviews-more').click()
  const failed = reviews.getByTestId('reviews-error')
  await expect(failed).toContainText('レビューを読み込めませんでした。')
  await expect(reviews.getByTestId('review')).toHaveCount(10)
  await expectAccessible(page)
  await page.unroute('**/_serverFn/**')
  await failed.getByRole('button', { name: 'もう一度読み込む' }).click()
  await expect(failed).toHaveCount(0)
  await expect.poll(() => reviews.getByTestId('review').count()).toBeGreaterThan(10)
  expect(reloads).toEqual([])
  await expectAccessible(page)
})
