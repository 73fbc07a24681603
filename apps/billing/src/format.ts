/** Price formatting for billing pages (the plan catalogue and its helpers come from @tickety/shared). */
export function formatPrice(amount: number, currency: string): string {
  return new Intl.NumberFormat('en', { style: 'currency', currency }).format(amount);
}
