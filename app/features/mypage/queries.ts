import { queryOptions } from '@tanstack/react-query'
import { getMyPage } from './mypage.functions'

export const myPageQuery = () => queryOptions({ queryKey: ['mypage'], queryFn: () => getMyPage() })
