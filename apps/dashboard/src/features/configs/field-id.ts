/** The DOM id of the control of a field, from its path inside the editor (`embed.title`). No zod here: the send dialog's picker uses it too. */
export function fieldId(scope: string, path: string): string {
  return `${scope}-${path.replace(/[^A-Za-z0-9_-]/g, '-') || 'item'}`;
}
