import { z } from 'zod'
import { Id } from './common'

export const masterKinds = [
  'categories',
  'school_types',
  'professions',
  'class_styles',
  'target_grades',
  'video_content_statuses',
] as const
export type MasterKind = (typeof masterKinds)[number]

export const MasterItem = z.object({ id: Id, name: z.string(), sort_order: z.number().int() })
export type MasterItem = z.infer<typeof MasterItem>

export const MasterList = z.array(MasterItem)
export type MasterList = z.infer<typeof MasterList>
