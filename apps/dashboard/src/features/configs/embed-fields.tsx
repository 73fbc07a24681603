import {
  EMBED_DESCRIPTION_MAX,
  EMBED_FOOTER_TEXT_MAX,
  EMBED_TITLE_MAX,
  EMBEDS_TOTAL_MAX,
  type EmbedConfig,
  embedConfigLength,
  URL_MAX,
} from '@tickety/api-contract';
import { formatNumber } from '@tickety/shared';
import { cx, inputClasses } from '@tickety/ui';
import { useState } from 'react';
import { useT } from './i18n';
import { FieldErrors, FieldFrame, TextArea, TextInput, useField } from './fields';

/** Discord's brand colours, the ones admins reach for first. */
const SWATCHES = [
  ['blurple', 0x5865f2],
  ['green', 0x57f287],
  ['yellow', 0xfee75c],
  ['fuchsia', 0xeb459e],
  ['red', 0xed4245],
  ['white', 0xffffff],
  ['black', 0x23272a],
] as const;

const toHex = (n: number) => `#${n.toString(16).padStart(6, '0').toUpperCase()}`;

/** The colour bar: Discord's default, a swatch, the system colour picker, or `#RRGGBB` typed in. */
function ColourField({ path, value, onChange }: { path: string; value: number | null; onChange(value: number | null): void }) {
  const t = useT();
  const { id } = useField(path);
  const [text, setText] = useState(value === null ? '' : toHex(value));
  const [textError, setTextError] = useState(false);
  const shown = value === null ? (textError ? text : '') : text.toUpperCase() === toHex(value) || textError ? text : toHex(value);
  return (
    <FieldFrame path={path} label={t('field.colour')} hint={t('field.colourHint')}>
      {(control) => (
        <div className="space-y-2">
          <div className="flex flex-wrap items-center gap-2">
            <input
              type="color"
              aria-label={t('field.colourPicker')}
              value={value === null ? '#1e1f22' : toHex(value).toLowerCase()}
              onChange={(event) => {
                const parsed = Number.parseInt(event.target.value.slice(1), 16);
                setText(toHex(parsed));
                setTextError(false);
                onChange(parsed);
              }}
              className="h-9 w-12 cursor-pointer rounded-md border border-surface-300 bg-white p-0.5 dark:border-surface-700 dark:bg-surface-900"
            />
            <span className="w-32">
            <input
              {...control}
              aria-invalid={textError || control['aria-invalid'] || undefined}
              aria-describedby={[textError ? `${id}-format` : null, control['aria-describedby']].filter(Boolean).join(' ') || undefined}
              className={cx(inputClasses, 'font-mono uppercase')}
              value={shown}
              placeholder={t('field.colourDefault')}
              spellCheck={false}
              autoComplete="off"
              onChange={(event) => {
                const raw = event.target.value.trim();
                setText(raw);
                if (raw === '') {
                  setTextError(false);
                  onChange(null);
                  return;
                }
                const match = /^#?([0-9a-f]{6})$/i.exec(raw);
                setTextError(!match);
                if (match) onChange(Number.parseInt(match[1]!, 16));
              }}
            />
            </span>
            <button
              type="button"
              onClick={() => {
                setText('');
                setTextError(false);
                onChange(null);
              }}
              aria-pressed={value === null}
              className="rounded-md px-2 py-1 text-xs font-medium text-surface-700 ring-1 ring-surface-300 ring-inset hover:bg-surface-100 aria-pressed:bg-surface-200 dark:text-surface-300 dark:ring-surface-700 dark:hover:bg-surface-800 dark:aria-pressed:bg-surface-700"
            >
              {t('field.colourDefault')}
            </button>
          </div>
          <fieldset className="flex flex-wrap gap-1.5">
            <legend className="sr-only">{t('field.colourSwatches')}</legend>
            {SWATCHES.map(([name, colour]) => (
              <button
                key={name}
                type="button"
                aria-label={`${t(`colour.${name}`)} ${toHex(colour)}`}
                aria-pressed={value === colour}
                onClick={() => {
                  setText(toHex(colour));
                  setTextError(false);
                  onChange(colour);
                }}
                className="size-7 rounded-full ring-1 ring-surface-300 ring-offset-2 ring-offset-white aria-pressed:ring-2 aria-pressed:ring-primary-600 dark:ring-surface-600 dark:ring-offset-surface-900"
                style={{ backgroundColor: toHex(colour) }}
              />
            ))}
          </fieldset>
          {textError ? <FieldErrors id={`${id}-format`} errors={[t('field.colourFormat')]} /> : null}
        </div>
      )}
    </FieldFrame>
  );
}

/** An embed's fields (a panel's message, a welcome message), with the message-wide 6,000 total. */
export function EmbedFields({ path, value, onChange }: { path: string; value: EmbedConfig; onChange(value: EmbedConfig): void }) {
  const t = useT();
  const { id, errors } = useField(path);
  const total = embedConfigLength(value);
  const set = <K extends keyof EmbedConfig>(key: K, next: EmbedConfig[K]) => onChange({ ...value, [key]: next });
  return (
    <div className="space-y-4">
      <TextInput path={`${path}.title`} label={t('field.title')} value={value.title} onChange={(v) => set('title', v)} max={EMBED_TITLE_MAX} hint={t('field.titleHint')} />
      <TextArea
        path={`${path}.description`}
        label={t('field.description')}
        value={value.description}
        onChange={(v) => set('description', v)}
        max={EMBED_DESCRIPTION_MAX}
        rows={7}
        markdown
        hint={t('field.descriptionHint')}
      />
      <ColourField path={`${path}.colour`} value={value.colour} onChange={(v) => set('colour', v)} />
      <div className="grid gap-4 md:grid-cols-2">
        <TextInput
          path={`${path}.imageUrl`}
          label={t('field.imageUrl')}
          type="url"
          value={value.imageUrl ?? ''}
          onChange={(v) => set('imageUrl', v.trim() === '' ? null : v.trim())}
          placeholder="https://"
          hint={t('field.imageHint', { max: formatNumber(URL_MAX) })}
          spellCheck={false}
        />
        <TextInput
          path={`${path}.thumbnailUrl`}
          label={t('field.thumbnailUrl')}
          type="url"
          value={value.thumbnailUrl ?? ''}
          onChange={(v) => set('thumbnailUrl', v.trim() === '' ? null : v.trim())}
          placeholder="https://"
          hint={t('field.thumbnailHint')}
          spellCheck={false}
        />
      </div>
      <TextInput path={`${path}.footer`} label={t('field.footer')} value={value.footer} onChange={(v) => set('footer', v)} max={EMBED_FOOTER_TEXT_MAX} />
      <div id={id} tabIndex={-1} className="outline-none">
        <p className={cx('text-xs', total > EMBEDS_TOTAL_MAX ? 'font-bold text-red-700 dark:text-red-400' : 'text-surface-600 dark:text-surface-400')}>
          {t('field.embedTotal', { count: formatNumber(total), max: formatNumber(EMBEDS_TOTAL_MAX) })}
        </p>
        <FieldErrors id={`${id}-error`} errors={errors} />
      </div>
    </div>
  );
}
