import { ANNOUNCEMENT_AUDIENCES, ANNOUNCEMENT_SEVERITIES, ANNOUNCEMENT_TEXT_MAX, type AnnouncementAudience, type AnnouncementSeverity, announcementTextLength } from '@tickety/api-contract';
import { failureText } from '@tickety/shared';
import { SeverityIcon } from '@tickety/shared/announcement-text';
import { Alert, Button, Card, cx, inputClasses } from '@tickety/ui';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { useT } from '../../lib/i18n';
import { AnnouncementPreview } from './announcement-preview';
import { type Announcement, fromLocalInput, toLocalInput, useCreateAnnouncementMutation, useEditAnnouncementMutation, utcOffsetLabel } from './api';

export type SavedHow = 'created' | 'published' | 'scheduled' | 'saved';

interface AnnouncementFormProps {
  /** The notice being edited; null for a new one. */
  editing: Announcement | null;
  onSaved: (saved: Announcement, how: SavedHow) => void;
  onCancel: () => void;
}

type Field = 'text' | 'startsAt' | 'endsAt';
type Errors = Partial<Record<Field, string>>;

const labelClasses = 'mb-1 block text-sm font-medium text-surface-800 dark:text-surface-200';
const hintClasses = 'mt-1 text-xs text-surface-600 dark:text-surface-400';
const errorClasses = 'mt-1 text-xs font-medium text-red-600 dark:text-red-400';

/**
 * The System Update form: severity, the text with its live preview (as the banner will show it),
 * audience, start and end (in the reader's own time zone). New: "Save as draft" or "Publish" (or
 * "Schedule" when the start is to come); a draft: "Save draft" or "Publish"; a published notice: "Save
 * changes". Checked here as the API checks it (the API's answer stays the judge), the first field in
 * error focused; a refusal is shown in the form, nothing lost.
 */
export function AnnouncementForm({ editing, onSaved, onCancel }: AnnouncementFormProps) {
  const t = useT();
  const ids = useId();
  const [severity, setSeverity] = useState<AnnouncementSeverity>(editing?.severity ?? 'info');
  const [text, setText] = useState(editing?.text ?? '');
  const [audience, setAudience] = useState<AnnouncementAudience>(editing?.audience ?? 'everyone');
  const [startsAt, setStartsAt] = useState(toLocalInput(editing?.startsAt ?? null));
  const [endsAt, setEndsAt] = useState(toLocalInput(editing?.endsAt ?? null));
  const [errors, setErrors] = useState<Errors>({});
  const [failure, setFailure] = useState<unknown>(undefined);
  const [create, createState] = useCreateAnnouncementMutation();
  const [edit, editState] = useEditAnnouncementMutation();
  const busy = createState.isLoading || editState.isLoading;
  const heading = useRef<HTMLHeadingElement>(null);
  const fields = { text: useRef<HTMLTextAreaElement>(null), startsAt: useRef<HTMLInputElement>(null), endsAt: useRef<HTMLInputElement>(null) };

  useEffect(() => {
    heading.current?.focus();
  }, []);

  const isDraft = editing === null || editing.status === 'draft';
  const length = announcementTextLength(text.trim());
  const startMs = fromLocalInput(startsAt);
  const startsLater = typeof startMs === 'string' && Date.parse(startMs) > Date.now();

  const check = (publishing: boolean): Errors => {
    const found: Errors = {};
    if (text.trim() === '') found.text = t('announcements.form.error.textEmpty');
    else if (length > ANNOUNCEMENT_TEXT_MAX) found.text = t('announcements.form.error.textLong', { max: ANNOUNCEMENT_TEXT_MAX });
    const start = fromLocalInput(startsAt);
    const end = fromLocalInput(endsAt);
    if (start === undefined) found.startsAt = t('announcements.form.error.badTime');
    if (end === undefined) found.endsAt = t('announcements.form.error.badTime');
    else if (end !== null && typeof start === 'string' && Date.parse(end) <= Date.parse(start)) found.endsAt = t('announcements.form.error.endBeforeStart');
    else if (end !== null && publishing && Date.parse(end) <= Date.now()) found.endsAt = t('announcements.form.error.endPassed');
    return found;
  };

  const submit = async (publish: boolean) => {
    setFailure(undefined);
    const publishing = publish || (editing !== null && editing.status !== 'draft');
    const found = check(publishing);
    setErrors(found);
    const first = (['text', 'startsAt', 'endsAt'] as const).find((f) => found[f]);
    if (first) {
      fields[first].current?.focus();
      return;
    }
    const start = fromLocalInput(startsAt) ?? null;
    const end = fromLocalInput(endsAt) ?? null;
    try {
      if (editing === null) {
        const saved = await create({ severity, text, audience, startsAt: start, endsAt: end, publish }).unwrap();
        onSaved(saved, publish ? (saved.status === 'scheduled' ? 'scheduled' : 'published') : 'created');
      } else {
        const saved = await edit({
          id: editing.id,
          version: editing.version,
          severity,
          text,
          audience,
          startsAt: start,
          endsAt: end,
          ...(publish ? { publish: true as const } : {}),
        }).unwrap();
        onSaved(saved, publish ? (saved.status === 'scheduled' ? 'scheduled' : 'published') : 'saved');
      }
    } catch (error) {
      // A 409 (changed or ended meanwhile) reads the list again through the mutation's tags.
      setFailure(error);
    }
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void submit(isDraft);
  };

  const describedBy = (field: Field, hint?: string) => [hint, errors[field] ? `${ids}-${field}-error` : undefined].filter(Boolean).join(' ') || undefined;
  const offset = utcOffsetLabel();

  return (
    <Card className="p-4 sm:p-6">
      <form noValidate onSubmit={onSubmit} aria-labelledby={`${ids}-heading`} className="space-y-5">
        <h2 ref={heading} id={`${ids}-heading`} tabIndex={-1} className="text-lg font-semibold text-surface-900 focus:outline-none dark:text-surface-50">
          {editing ? t('announcements.form.editHeading', { id: editing.id }) : t('announcements.form.newHeading')}
        </h2>

        <fieldset>
          <legend className={labelClasses}>{t('announcements.form.severity')}</legend>
          <div className="grid gap-2 sm:grid-cols-3">
            {ANNOUNCEMENT_SEVERITIES.map((level) => (
              <label
                key={level}
                className={cx(
                  'flex cursor-pointer items-start gap-2 rounded-lg border p-3 text-sm has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-primary-500',
                  severity === level ? 'border-primary-500 bg-primary-50 dark:border-primary-400 dark:bg-primary-950' : 'border-surface-300 dark:border-surface-700',
                )}
              >
                <input type="radio" name={`${ids}-severity`} value={level} checked={severity === level} onChange={() => setSeverity(level)} className="mt-1 accent-primary-600" />
                <span className="min-w-0">
                  <span className="flex items-center gap-1.5 font-medium text-surface-900 dark:text-surface-50">
                    <SeverityIcon severity={level} className="size-4" />
                    {t(`announcements.severity.${level}`)}
                  </span>
                  <span className="mt-0.5 block text-xs text-surface-600 dark:text-surface-400">{t(`announcements.severityHint.${level}`)}</span>
                </span>
              </label>
            ))}
          </div>
        </fieldset>

        <div className="grid gap-5 lg:grid-cols-2">
          <div>
            <label htmlFor={`${ids}-text`} className={labelClasses}>
              {t('announcements.form.text')}
            </label>
            <textarea
              ref={fields.text}
              id={`${ids}-text`}
              rows={6}
              value={text}
              onChange={(e) => setText(e.target.value)}
              aria-invalid={errors.text ? true : undefined}
              aria-describedby={describedBy('text', `${ids}-text-hint ${ids}-text-count`)}
              className={cx(inputClasses, 'font-mono')}
            />
            <div className="flex flex-wrap items-start justify-between gap-x-3">
              <p id={`${ids}-text-hint`} className={hintClasses}>
                {t('announcements.form.textHint')}
              </p>
              <p id={`${ids}-text-count`} className={cx(hintClasses, 'tabular-nums', length > ANNOUNCEMENT_TEXT_MAX && 'font-semibold text-red-600 dark:text-red-400')}>
                {t('announcements.form.count', { count: length, max: ANNOUNCEMENT_TEXT_MAX })}
              </p>
            </div>
            {errors.text ? (
              <p id={`${ids}-text-error`} className={errorClasses}>
                {errors.text}
              </p>
            ) : null}
          </div>
          <section aria-labelledby={`${ids}-preview`}>
            <h3 id={`${ids}-preview`} className={labelClasses}>
              {t('announcements.form.preview')}
            </h3>
            <AnnouncementPreview severity={severity} text={text} empty={t('announcements.form.previewEmpty')} />
          </section>
        </div>

        <div className="grid gap-5 sm:grid-cols-3">
          <div>
            <label htmlFor={`${ids}-audience`} className={labelClasses}>
              {t('announcements.form.audience')}
            </label>
            <select id={`${ids}-audience`} value={audience} onChange={(e) => setAudience(e.target.value as AnnouncementAudience)} className={cx(inputClasses, 'pr-8')}>
              {ANNOUNCEMENT_AUDIENCES.map((audience) => (
                <option key={audience} value={audience}>
                  {t(`announcements.audience.${audience}`)}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor={`${ids}-start`} className={labelClasses}>
              {t('announcements.form.start')}
            </label>
            <input
              ref={fields.startsAt}
              id={`${ids}-start`}
              type="datetime-local"
              value={startsAt}
              onChange={(e) => setStartsAt(e.target.value)}
              aria-invalid={errors.startsAt ? true : undefined}
              aria-describedby={describedBy('startsAt', `${ids}-start-hint`)}
              className={inputClasses}
            />
            <p id={`${ids}-start-hint`} className={hintClasses}>
              {t('announcements.form.startHint', { zone: offset })}
            </p>
            {errors.startsAt ? (
              <p id={`${ids}-startsAt-error`} className={errorClasses}>
                {errors.startsAt}
              </p>
            ) : null}
          </div>
          <div>
            <label htmlFor={`${ids}-end`} className={labelClasses}>
              {t('announcements.form.end')}
            </label>
            <input
              ref={fields.endsAt}
              id={`${ids}-end`}
              type="datetime-local"
              value={endsAt}
              onChange={(e) => setEndsAt(e.target.value)}
              aria-invalid={errors.endsAt ? true : undefined}
              aria-describedby={describedBy('endsAt', `${ids}-end-hint`)}
              className={inputClasses}
            />
            <p id={`${ids}-end-hint`} className={hintClasses}>
              {t('announcements.form.endHint', { zone: offset })}
            </p>
            {errors.endsAt ? (
              <p id={`${ids}-endsAt-error`} className={errorClasses}>
                {errors.endsAt}
              </p>
            ) : null}
          </div>
        </div>

        {failure !== undefined ? (
          <Alert tone="danger" title={t('announcements.form.failed')}>
            {failureText(failure)}
          </Alert>
        ) : null}

        <div className="flex flex-wrap justify-end gap-2">
          <Button type="button" variant="secondary" onClick={onCancel} disabled={busy}>
            {t('announcements.form.cancel')}
          </Button>
          {isDraft ? (
            <>
              <Button type="button" variant="secondary" onClick={() => void submit(false)} disabled={busy}>
                {editing ? t('announcements.form.saveDraft') : t('announcements.form.createDraft')}
              </Button>
              <Button type="submit" loading={busy}>
                {startsLater ? t('announcements.form.schedule') : t('announcements.form.publish')}
              </Button>
            </>
          ) : (
            <Button type="submit" loading={busy}>
              {t('announcements.form.save')}
            </Button>
          )}
        </div>
      </form>
    </Card>
  );
}
