import type { TicketLabel } from '@tickety/api-contract';
import { colourCss, textOn } from './model';

/** A label as a chip: its name (never its colour alone) on its colour, with readable text. */
export function LabelChip({ label }: { label: TicketLabel }) {
  return (
    <span
      className="inline-flex max-w-full items-center truncate rounded-full border border-black/10 px-2 py-0.5 text-xs font-medium dark:border-white/15"
      style={{ backgroundColor: colourCss(label.colour), color: textOn(label.colour) }}
    >
      {label.name}
    </span>
  );
}

/** The chips of the labels `ids` names, in the server's order (ids no longer configured are left out). */
export function LabelChips({ ids, labels, className }: { ids: readonly string[]; labels: readonly TicketLabel[]; className?: string }) {
  const shown = labels.filter((label) => ids.includes(label.id));
  if (shown.length === 0) return null;
  return (
    <ul className={className ?? 'flex flex-wrap gap-1'}>
      {shown.map((label) => (
        <li key={label.id} className="min-w-0">
          <LabelChip label={label} />
        </li>
      ))}
    </ul>
  );
}
