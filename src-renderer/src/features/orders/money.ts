/** An amount in its currency ("DKK 1,250.00" as the locale writes it); the bare number when the currency is unknown. */
export function formatMoney(amount: number | null | undefined, currency: string | null | undefined): string {
  if (amount === null || amount === undefined) return '—';
  if (currency) {
    try {
      return new Intl.NumberFormat(undefined, { style: 'currency', currency }).format(amount);
    } catch {
      // An unknown code: fall through to the number with the code after it.
    }
  }
  return `${amount.toFixed(2)}${currency ? ` ${currency}` : ''}`;
}
