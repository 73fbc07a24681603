import type { EmbedConfig, PanelButton } from '@tickety/api-contract';
import { cx } from '@tickety/ui';

const BUTTON_COLOURS: Record<PanelButton['style'], string> = {
  primary: 'bg-[#5865f2]',
  secondary: 'bg-[#4e5058]',
  success: 'bg-[#248046]',
  danger: 'bg-[#da373c]',
};

/** Markdown markers left out of the small preview's one line. */
function plain(text: string): string {
  return text.replace(/[*_~`|>#]/g, '').replace(/\s+/g, ' ').trim();
}

function hex(colour: number | null): string {
  return colour === null ? '#1e1f22' : `#${colour.toString(16).padStart(6, '0')}`;
}

/**
 * A panel's message in miniature for the list (Discord's dark theme): the colour bar, the title or the
 * description's first words, and the buttons (or the select menu). Decorative: the row's name says
 * what it is; the editor has the full preview.
 */
export function MiniPreview({ embed, buttons, select }: { embed: EmbedConfig; buttons: PanelButton[]; select?: string }) {
  const headline = plain(embed.title) || plain(embed.description);
  return (
    <span aria-hidden="true" className="block w-44 max-w-full overflow-hidden rounded-md bg-[#313338] p-1.5 text-left">
      <span className="block rounded-sm border-l-[3px] bg-[#2b2d31] px-1.5 py-1" style={{ borderLeftColor: hex(embed.colour) }}>
        <span className="block truncate text-[11px] font-semibold text-[#f2f3f5]">{headline || '…'}</span>
      </span>
      <span className="mt-1 flex flex-wrap gap-1">
        {select !== undefined ? (
          <span className="block w-full truncate rounded-sm bg-[#1e1f22] px-1.5 py-0.5 text-[10px] text-[#b5bac1]">{select}</span>
        ) : (
          buttons.slice(0, 5).map((button, index) => (
            <span
              // biome-ignore lint/suspicious/noArrayIndexKey: a fixed, decorative list
              key={index}
              className={cx('inline-flex max-w-full items-center gap-0.5 truncate rounded-sm px-1.5 py-0.5 text-[10px] font-medium text-white', BUTTON_COLOURS[button.style])}
            >
              {typeof button.emoji === 'string' ? <span>{button.emoji}</span> : null}
              <span className="truncate">{button.label}</span>
            </span>
          ))
        )}
      </span>
    </span>
  );
}
