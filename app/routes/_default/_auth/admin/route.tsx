import { createFileRoute, Outlet } from '@tanstack/react-router'
import { requireOperator } from '~/features/auth/guards'

/** 運営管理: operators only (visitors → login, other members → 404). Every /v1/admin call checks the role too. */
export const Route = createFileRoute('/_default/_auth/admin')({
  beforeLoad: requireOperator,
  component: Outlet,
})
