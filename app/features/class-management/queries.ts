import { queryOptions } from '@tanstack/react-query'
import {
  getClassFormOptions,
  getClassRequests,
  getMyClasses,
  getOwnClass,
  getScheduleStudents,
} from './class-management.functions'

export const myClassesQuery = (published: boolean) =>
  queryOptions({
    queryKey: ['class-management', 'list', published],
    queryFn: () => getMyClasses({ data: { published } }),
  })

export const classFormOptionsQuery = () =>
  queryOptions({
    queryKey: ['class-management', 'options'],
    queryFn: () => getClassFormOptions(),
    staleTime: 600_000,
  })

export const ownClassQuery = (id: number) =>
  queryOptions({ queryKey: ['class-management', 'class', id], queryFn: () => getOwnClass({ data: { id } }) })

export const scheduleStudentsQuery = (scheduleId: number) =>
  queryOptions({
    queryKey: ['class-management', 'students', scheduleId],
    queryFn: () => getScheduleStudents({ data: { scheduleId } }),
  })

export const classRequestsQuery = (classWorkId: number) =>
  queryOptions({
    queryKey: ['class-management', 'requests', classWorkId],
    queryFn: () => getClassRequests({ data: { classWorkId } }),
  })
