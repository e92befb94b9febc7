// Page sizes the API and the pages share, apart from the pager's code (which only pages with a pager load).

/** Classes per page of a teacher's public page (GET /v1/teachers/{id}/class_works?page=N). */
export const TEACHER_CLASSES_PER_PAGE = 24
