import { createFileRoute } from '@tanstack/react-router'
import { uploadResponse } from '~/server/uploads.server'

/** GET /uploads/{classes,avatars}/<random>.<ext> — uploaded images from the shared store (uploads.server.ts). */
export const Route = createFileRoute('/uploads/$')({
  server: {
    handlers: {
      GET: ({ params }) => uploadResponse(params._splat ?? ''),
    },
  },
})
