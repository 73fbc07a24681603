/**
 * A Discord CDN signature timestamp (`ex` = expires, `is` = issued): Unix seconds in hexadecimal.
 * Null when the value is not plain hex or not a usable date.
 */
export function decodeHexSeconds(value: string | undefined): Date | null {
  if (!value || !/^[0-9a-f]{1,12}$/i.test(value)) return null;
  const date = new Date(Number.parseInt(value, 16) * 1000);
  return Number.isNaN(date.getTime()) ? null : date;
}
