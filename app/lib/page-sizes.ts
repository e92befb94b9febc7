// Page sizes the API and the pages share, apart from the pager's code (which only pages with a pager load).

/** Classes per page of a teacher's public page (GET /v1/teachers/{id}/class_works?page=N). */
export const TEACHER_CLASSES_PER_PAGE = 24

/**
 * Messages per page of a room (GET /v1/rooms/{id}/messages, and each ?before= page). Here, not in the contract: the
 * room's page needs the number, and importing the contract would bring zod into its code (whose eval probe breaks
 * the content security policy).
 */
export const MESSAGE_PAGE_SIZE = 200
