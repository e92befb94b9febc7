import { type QueryClient, queryOptions } from '@tanstack/react-query'
import { getOrganizationForEdit, getOrganizationPage } from './organization.functions'

export const organizationPageQuery = (month: string | undefined) =>
  queryOptions({
    queryKey: ['organization', 'page', month ?? 'current'],
    queryFn: () => getOrganizationPage({ data: { month } }),
  })

export const organizationEditQuery = () =>
  queryOptions({ queryKey: ['organization', 'edit'], queryFn: () => getOrganizationForEdit() })

/**
 * After joining, leaving, creating, editing, handing over or removing: every view of the member's organisation in
 * this browser reads it again — this page, 基本情報 (団体・代表/メンバー), teacher and class pages and the follow list
 * (its name), class management (所属団体) — rather than showing the cached one for up to the 30 s a query stays fresh.
 */
export const refreshOrganizationViews = (queryClient: QueryClient) =>
  Promise.all(
    [['organization'], ['profile'], ['teacher-page'], ['class-detail'], ['follow'], ['class-management']].map(
      (queryKey) => queryClient.invalidateQueries({ queryKey }),
    ),
  )
