/** The ticket pane's chunk: loaded when a ticket is open, and early when a queue row is pointed at or focused. */
export const loadConversation = () => import('./conversation');
