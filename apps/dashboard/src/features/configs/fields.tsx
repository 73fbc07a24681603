/**
 * The editors' form controls: every one labelled, its hint, counter and errors tied to it with
 * aria-describedby, aria-invalid while the schema (or the server) finds a problem, and a DOM id made
 * from its path so a failed save can move focus to it.
 */

import { discordLength } from '@tickety/api-contract';
import { formatNumber } from '@tickety/shared';
import { cx, inputClasses } from '@tickety/ui';
import CircleAlert from 'lucide-react/icons/circle-alert';
import { createContext, type ReactNode, type RefObject, useContext, useId, useRef, useState } from 'react';
import { useT } from './i18n';
import { fieldId } from './field-id';

export interface FieldScope {
  /** Prefix of the DOM ids of this editor's controls. */
  scope: string;
  /** The problems of the field at `path` (the draft's own path, `embed.title`). */
  errors(path: string): string[];
  /** The problems of the fields inside `path` (`form.0.label` for `form`). */
  under(path: string): string[];
}

export const FieldContext = createContext<FieldScope>({ scope: 'field', errors: () => [], under: () => [] });

export function useFieldScope(): FieldScope {
  return useContext(FieldContext);
}

export function useField(path: string) {
  const { scope, errors } = useContext(FieldContext);
  const id = fieldId(scope, path);
  return { id, errors: errors(path) };
}

/** A field's problems, tied to the control by id. */
export function FieldErrors({ id, errors }: { id: string; errors: string[] }) {
  if (errors.length === 0) return null;
  return (
    <ul id={id} className="mt-1 space-y-0.5 text-xs font-medium text-red-700 dark:text-red-400">
      {errors.map((error) => (
        <li key={error} className="flex gap-1">
          <CircleAlert aria-hidden="true" className="mt-px size-3.5 shrink-0" />
          <span>{error}</span>
        </li>
      ))}
    </ul>
  );
}

/** "12 / 256": red and bold past the limit. */
function Counter({ id, length, max }: { id: string; length: number; max: number }) {
  const t = useT();
  const over = length > max;
  return (
    <span id={id} className={cx('shrink-0 text-xs tabular-nums', over ? 'font-bold text-red-700 dark:text-red-400' : 'text-surface-500 dark:text-surface-400')}>
      {t('field.counter', { count: formatNumber(length), max: formatNumber(max) })}
    </span>
  );
}

interface FrameProps {
  path: string;
  label: ReactNode;
  hint?: ReactNode;
  /** Discord's limit for a text (the counter counts code points, as Discord does). */
  max?: number;
  length?: number;
  required?: boolean;
  className?: string;
  /** Controls shown after the label (a toolbar). */
  aside?: ReactNode;
  children: (control: { id: string; 'aria-describedby'?: string; 'aria-invalid'?: true; 'aria-required'?: true }) => ReactNode;
  after?: ReactNode;
  /** Problems of the field's parts (a role list's entries) shown with its own. */
  extraErrors?: string[];
}

/** Label, control, hint, counter and errors of one field. */
export function FieldFrame({ path, label, hint, max, length = 0, required, className, aside, children, after, extraErrors = [] }: FrameProps) {
  const t = useT();
  const field = useField(path);
  const id = field.id;
  const errors = extraErrors.length > 0 ? [...field.errors, ...extraErrors] : field.errors;
  const hintId = hint ? `${id}-hint` : undefined;
  const countId = max !== undefined ? `${id}-count` : undefined;
  const errorId = errors.length > 0 ? `${id}-error` : undefined;
  return (
    <div className={cx('min-w-0', className)}>
      <div className="mb-1 flex flex-wrap items-end justify-between gap-x-3 gap-y-1">
        <label htmlFor={id} className="text-sm font-medium text-surface-800 dark:text-surface-200">
          {label}
          {required ? (
            <span className="text-red-700 dark:text-red-400" title={t('field.required')}>
              {' '}
              *<span className="sr-only">{t('field.required')}</span>
            </span>
          ) : null}
        </label>
        {aside}
      </div>
      {children({
        id,
        'aria-describedby': [errorId, hintId, countId].filter(Boolean).join(' ') || undefined,
        'aria-invalid': errors.length > 0 ? true : undefined,
        'aria-required': required ? true : undefined,
      })}
      {after}
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0 flex-1">
          <FieldErrors id={`${id}-error`} errors={errors} />
          {hint ? (
            <p id={hintId} className="mt-1 text-xs text-surface-600 dark:text-surface-400">
              {hint}
            </p>
          ) : null}
        </div>
        {max !== undefined ? (
          <span className="mt-1">
            <Counter id={countId!} length={length} max={max} />
          </span>
        ) : null}
      </div>
    </div>
  );
}

/** Puts `text` at the cursor of `input` (or around the selection: `before` + selection + `after`). */
function insertAt(input: HTMLInputElement | HTMLTextAreaElement | null, value: string, before: string, after = '', onChange: (value: string) => void) {
  const start = input?.selectionStart ?? value.length;
  const end = input?.selectionEnd ?? value.length;
  const next = value.slice(0, start) + before + value.slice(start, end) + after + value.slice(end);
  onChange(next);
  requestAnimationFrame(() => {
    if (!input) return;
    input.focus();
    const caret = start + before.length + (end - start);
    input.setSelectionRange(after ? start + before.length : caret, caret);
  });
}

interface TextProps {
  path: string;
  label: ReactNode;
  value: string;
  onChange(value: string): void;
  max?: number;
  required?: boolean;
  hint?: ReactNode;
  placeholder?: string;
  type?: 'text' | 'url';
  className?: string;
  /** Texts the user can put in at the cursor with a button (`{count}`). */
  inserts?: string[];
  spellCheck?: boolean;
}

export function TextInput({ path, label, value, onChange, max, required, hint, placeholder, type = 'text', className, inserts, spellCheck }: TextProps) {
  const t = useT();
  const ref = useRef<HTMLInputElement>(null);
  return (
    <FieldFrame
      path={path}
      label={label}
      hint={hint}
      max={max}
      length={discordLength(value)}
      required={required}
      className={className}
      after={
        inserts ? (
          <div className="mt-1.5 flex flex-wrap gap-1.5">
            {inserts.map((text) => (
              <button
                key={text}
                type="button"
                onClick={() => insertAt(ref.current, value, text, '', onChange)}
                className="rounded-md bg-primary-50 px-2 py-0.5 font-mono text-xs font-medium text-primary-800 ring-1 ring-primary-600/20 ring-inset hover:bg-primary-100 focus-visible:outline-2 focus-visible:outline-primary-600 dark:bg-primary-950 dark:text-primary-200 dark:ring-primary-400/30"
              >
                <span className="sr-only">{t('field.insert')} </span>
                {text}
              </button>
            ))}
          </div>
        ) : null
      }
    >
      {(control) => (
        <input
          ref={ref}
          {...control}
          type={type}
          className={inputClasses}
          value={value}
          placeholder={placeholder}
          spellCheck={spellCheck}
          autoComplete="off"
          onChange={(e) => onChange(e.target.value)}
        />
      )}
    </FieldFrame>
  );
}

/** Discord markdown a toolbar button puts around the selection. */
const MARKDOWN_TOOLS: Array<{ key: 'bold' | 'italic' | 'underline' | 'strike' | 'code' | 'spoiler' | 'quote' | 'list'; glyph: string; before: string; after: string; className?: string }> = [
  { key: 'bold', glyph: 'B', before: '**', after: '**', className: 'font-bold' },
  { key: 'italic', glyph: 'I', before: '*', after: '*', className: 'italic' },
  { key: 'underline', glyph: 'U', before: '__', after: '__', className: 'underline' },
  { key: 'strike', glyph: 'S', before: '~~', after: '~~', className: 'line-through' },
  { key: 'code', glyph: '</>', before: '`', after: '`', className: 'font-mono' },
  { key: 'spoiler', glyph: '▮', before: '||', after: '||' },
  { key: 'quote', glyph: '❝', before: '> ', after: '' },
  { key: 'list', glyph: '•', before: '- ', after: '' },
];

export function TextArea({
  path,
  label,
  value,
  onChange,
  max,
  required,
  hint,
  placeholder,
  rows = 5,
  markdown = false,
  className,
}: Omit<TextProps, 'type' | 'inserts'> & { rows?: number; markdown?: boolean }) {
  const t = useT();
  const ref = useRef<HTMLTextAreaElement>(null);
  const toolbar = markdown ? (
    <div role="toolbar" aria-label={t('markdown.toolbar')} className="flex flex-wrap gap-0.5">
      {MARKDOWN_TOOLS.map((tool) => (
        <button
          key={tool.key}
          type="button"
          title={t(`markdown.${tool.key}`)}
          aria-label={t(`markdown.${tool.key}`)}
          onClick={() => {
            const input = ref.current;
            // A line marker goes to the start of the line.
            if (tool.after === '' && input) {
              const lineStart = value.lastIndexOf('\n', (input.selectionStart ?? value.length) - 1) + 1;
              input.setSelectionRange(lineStart, lineStart);
            }
            insertAt(input, value, tool.before, tool.after, onChange);
          }}
          className={cx(
            'inline-flex h-7 min-w-7 items-center justify-center rounded px-1.5 text-xs text-surface-700 hover:bg-surface-200 focus-visible:outline-2 focus-visible:outline-primary-600 dark:text-surface-300 dark:hover:bg-surface-800',
            tool.className,
          )}
        >
          <span aria-hidden="true">{tool.glyph}</span>
        </button>
      ))}
    </div>
  ) : null;
  return (
    <FieldFrame path={path} label={label} hint={hint} max={max} length={discordLength(value)} required={required} className={className} aside={toolbar}>
      {(control) => (
        <textarea
          ref={ref}
          {...control}
          rows={rows}
          className={cx(inputClasses, 'min-h-24 resize-y font-[inherit]')}
          value={value}
          placeholder={placeholder}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
    </FieldFrame>
  );
}

/**
 * A whole number, or empty (`null`: the fallback `hint` names). What the user types stays as typed
 * until it is a number again, so clearing the field to type another does not jump.
 */
export function NumberInput({ path, label, value, onChange, min, max, hint, nullable = false, placeholder, className }: { path: string; label: ReactNode; value: number | null; onChange(value: number | null): void; min: number; max: number; hint?: ReactNode; nullable?: boolean; placeholder?: string; className?: string }) {
  const [text, setText] = useState(value === null ? '' : String(value));
  // A value changed from outside (discarded changes, a reload) replaces what is typed.
  const [seen, setSeen] = useState(value);
  if (seen !== value) {
    setSeen(value);
    if ((text.trim() === '' ? null : Number(text)) !== value) setText(value === null ? '' : String(value));
  }
  return (
    <FieldFrame path={path} label={label} hint={hint} className={className}>
      {(control) => (
        <input
          {...control}
          type="number"
          inputMode="numeric"
          min={min}
          max={max}
          step={1}
          className={cx(inputClasses, 'max-w-40')}
          value={text}
          placeholder={placeholder}
          // A required number left empty goes back to its value.
          onBlur={() => {
            if (!nullable && text.trim() === '' && value !== null) setText(String(value));
          }}
          onChange={(event) => {
            const raw = event.target.value;
            setText(raw);
            if (raw.trim() === '') {
              if (nullable) onChange(null);
              return;
            }
            const parsed = Number(raw);
            if (Number.isFinite(parsed)) onChange(parsed);
          }}
        />
      )}
    </FieldFrame>
  );
}

export function SelectInput<V extends string>({ path, label, value, onChange, options, hint, className }: { path: string; label: ReactNode; value: V; onChange(value: V): void; options: Array<{ value: V; label: string }>; hint?: ReactNode; className?: string }) {
  return (
    <FieldFrame path={path} label={label} hint={hint} className={className}>
      {(control) => (
        <select {...control} className={cx(inputClasses, 'pr-8')} value={value} onChange={(e) => onChange(e.target.value as V)}>
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      )}
    </FieldFrame>
  );
}

/** A checkbox with its label beside it and an optional line under it. */
export function Toggle({ path, label, checked, onChange, hint, disabled }: { path: string; label: ReactNode; checked: boolean; onChange(checked: boolean): void; hint?: ReactNode; disabled?: boolean }) {
  const { id, errors } = useField(path);
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = errors.length > 0 ? `${id}-error` : undefined;
  return (
    <div className="min-w-0">
      <div className="flex items-start gap-2.5">
        <input
          id={id}
          type="checkbox"
          className="mt-0.5 size-4 shrink-0 rounded border-surface-400 accent-primary-600"
          checked={checked}
          disabled={disabled}
          aria-describedby={[errorId, hintId].filter(Boolean).join(' ') || undefined}
          aria-invalid={errors.length > 0 ? true : undefined}
          onChange={(e) => onChange(e.target.checked)}
        />
        <label htmlFor={id} className="text-sm font-medium text-surface-800 dark:text-surface-200">
          {label}
        </label>
      </div>
      <div className="pl-6.5">
        <FieldErrors id={`${id}-error`} errors={errors} />
        {hint ? (
          <p id={hintId} className="mt-0.5 text-xs text-surface-600 dark:text-surface-400">
            {hint}
          </p>
        ) : null}
      </div>
    </div>
  );
}

/** A group of radio buttons (a `fieldset` whose legend is the question). */
export function ChoiceGroup<V extends string>({ path, legend, value, onChange, options, hint, inline = true }: { path: string; legend: ReactNode; value: V; onChange(value: V): void; options: Array<{ value: V; label: ReactNode }>; hint?: ReactNode; inline?: boolean }) {
  const { id, errors } = useField(path);
  const name = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = errors.length > 0 ? `${id}-error` : undefined;
  return (
    <fieldset id={id} tabIndex={-1} className="min-w-0" aria-describedby={[errorId, hintId].filter(Boolean).join(' ') || undefined} aria-invalid={errors.length > 0 ? true : undefined}>
      <legend className="mb-1 text-sm font-medium text-surface-800 dark:text-surface-200">{legend}</legend>
      <div className={cx('flex gap-x-4 gap-y-1.5', inline ? 'flex-wrap' : 'flex-col')}>
        {options.map((option) => (
          <label key={option.value} className="inline-flex items-center gap-2 text-sm text-surface-800 dark:text-surface-200">
            <input type="radio" name={name} value={option.value} checked={value === option.value} onChange={() => onChange(option.value)} className="size-4 accent-primary-600" />
            {option.label}
          </label>
        ))}
      </div>
      <FieldErrors id={`${id}-error`} errors={errors} />
      {hint ? (
        <p id={hintId} className="mt-1 text-xs text-surface-600 dark:text-surface-400">
          {hint}
        </p>
      ) : null}
    </fieldset>
  );
}

/** A group of fields under a heading (a region named by it). */
export function Section({ title, description, children, aside, id }: { title: ReactNode; description?: ReactNode; children: ReactNode; aside?: ReactNode; id?: string }) {
  const headingId = useId();
  return (
    <section id={id} aria-labelledby={headingId} className="min-w-0 rounded-xl border border-surface-200 bg-white p-4 sm:p-5 dark:border-surface-800 dark:bg-surface-900">
      <div className="mb-4 flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h3 id={headingId} className="font-semibold text-surface-900 dark:text-surface-50">
            {title}
          </h3>
          {description ? <p className="mt-0.5 text-sm text-surface-600 dark:text-surface-400">{description}</p> : null}
        </div>
        {aside}
      </div>
      <div className="space-y-4">{children}</div>
    </section>
  );
}

/** Focuses the control of `path` (or, for '', the element `fallback`). */
export function focusField(scope: string, path: string, fallback: RefObject<HTMLElement | null>): void {
  const target = path === '' ? null : document.getElementById(fieldId(scope, path));
  const element = target ?? fallback.current;
  if (!element) return;
  element.scrollIntoView?.({ block: 'center' });
  element.focus();
}
