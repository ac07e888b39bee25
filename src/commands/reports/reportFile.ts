/** The order report's suggested file name. Pure: no `vscode`, unit-tested. */

/**
 * `order-report-2026-11-23-0930-Europe-Paris.csv`: the date and time the report was taken,
 * read in the report's own zone, and that zone, so two reports never look alike.
 */
export function reportFileName(now: Date, zone: string): string {
  let parts: Record<string, string>;
  try {
    parts = Object.fromEntries(
      new Intl.DateTimeFormat('en-GB', {
        timeZone: zone,
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
      })
        .formatToParts(now)
        .map((p) => [p.type, p.value]),
    );
  } catch {
    // Recovers from a zone this runtime does not know (the service accepted it): the time in UTC, the zone kept
    const iso = now.toISOString();
    parts = { year: iso.slice(0, 4), month: iso.slice(5, 7), day: iso.slice(8, 10), hour: iso.slice(11, 13), minute: iso.slice(14, 16) };
  }
  const safeZone = zone.replace(/[^A-Za-z0-9+-]+/g, '-').replace(/^-+|-+$/g, '') || 'UTC';
  return `order-report-${parts.year}-${parts.month}-${parts.day}-${parts.hour}${parts.minute}-${safeZone}.csv`;
}
