// Page sizes the API and the pages share, apart from the pager's code (which only pages with a pager load).

/** Classes per page of a teacher's public page (GET /v1/teachers/{id}/class_works?page=N). */
export const TEACHER_CLASSES_PER_PAGE = 24

/**
 * Messages per page of a room (GET /v1/rooms/{id}/messages, and each ?before= page). Here, not in the contract: the
 * room's page needs the number, and importing the contract would bring zod into its code (whose eval probe breaks
 * the content security policy).
 */
export const MESSAGE_PAGE_SIZE = 200

/**
 * The most students a teacher's list of people to write to holds (GET /v1/destinations?candidate=students): those
 * who reserved most recently. Any other is written to from their class's list of students.
 */
export const STUDENT_LIMIT = 300

/**
 * Entries a page of an operator's list holds (reports, 本人確認, suspended accounts): the next pages hold the rest.
 */
export const ADMIN_LIST_PAGE_SIZE = 200

/** The most people a search of the list by nickname answers (GET /v1/destinations?q=). */
export const DESTINATION_SEARCH_LIMIT = 50

/**
 * The most favorite classes, and followed teachers, one member keeps (a 409 past it): /follow lists every one of them
 * on one page, and no account grows either list without bound.
 */
export const MAX_FAVORITES = 200
export const MAX_FOLLOWS = 200

/**
 * The most teachers one organisation holds, its owner included (a 409 past it): /organization_management lists every
 * member and their sales on one page, and an invitation code passed around cannot grow it without bound.
 */
export const MAX_ORG_MEMBERS = 100
