/** What a change of the teaching state makes stale: this page, the profile, the header's menu and class management. */
export const queryKeysAfterTeachingChange = [
  ['teaching'],
  ['profile'],
  ['auth'],
  ['mypage'],
  ['class-management'],
]
