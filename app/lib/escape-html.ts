/** Text shown in a place that renders HTML (the snackbar's message, spec §3): its characters, not markup. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}
