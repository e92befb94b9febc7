import { UpdateUserBody } from '~/contract/v1/users'

/** The part of the profile /profile/edit_user edits (PATCH /v1/users/me validates it again). */
export const ProfileEditInput = UpdateUserBody.pick({
  nickname: true,
  name: true,
  name_kana: true,
  introduction: true,
  profession_id: true,
})
