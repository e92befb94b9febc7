import { queryOptions } from '@tanstack/react-query'
import { getReservationOptions } from './reservation.functions'

export const reservationOptionsQuery = () =>
  queryOptions({
    queryKey: ['reservation-options'],
    queryFn: () => getReservationOptions(),
    staleTime: 60_000,
  })
