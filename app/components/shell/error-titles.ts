/** Document titles of the error pages; the root route's head() sets them without loading the pages. */
export const NOT_FOUND_TITLE = 'お探しのページは見つかりませんでした'
export const ERROR_TITLE = 'エラーが発生しました'
