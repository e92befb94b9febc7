import { queryOptions } from '@tanstack/react-query'

// The server functions are imported when first called: a first load's data comes with the HTML, so first-load
// scripts carry no server-function code (vite.config.ts, docs/decisions/0008).

export const reservationOptionsQuery = () =>
  queryOptions({
    queryKey: ['reservation-options'],
    queryFn: () => import('./reservation.functions').then((f) => f.getReservationOptions()),
    staleTime: 60_000,
  })
