import { isTimeZone, MESSAGE_CONTENT_MAX, SUPPORT_HOURS_RANGES_PER_DAY_MAX, type SupportHours, WEEKDAYS, type Weekday } from '@tickety/api-contract';
import { Link } from '@tickety/shared';
import { Button, cx, inputClasses } from '@tickety/ui';
import Lock from 'lucide-react/icons/lock';
import Plus from 'lucide-react/icons/plus';
import Trash2 from 'lucide-react/icons/trash-2';
import { useId, useMemo } from 'react';
import { href } from '../../lib/hrefs';
import { useT } from './i18n';
import { fieldId } from './field-id';
import { FieldErrors, FieldFrame, TextArea, Toggle, useField, useFieldScope } from './fields';

/** The browser's own time zone when the schema knows it, else UTC. */
function browserTimeZone(): string {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return zone && isTimeZone(zone) ? zone : 'UTC';
}

function allTimeZones(): string[] {
  const intl = Intl as unknown as { supportedValuesOf?: (key: string) => string[] };
  try {
    return intl.supportedValuesOf?.('timeZone') ?? [];
  } catch {
    return [];
  }
}

function defaultHours(message: string): SupportHours {
  const day = [{ from: '09:00', to: '17:00' }];
  return {
    timeZone: browserTimeZone(),
    hours: { monday: day, tuesday: day, wednesday: day, thursday: day, friday: day, saturday: [], sunday: [] },
    outOfHoursMessage: message,
  };
}

function TimeInput({ path, label, value, onChange }: { path: string; label: string; value: string; onChange(value: string): void }) {
  const { id, errors } = useField(path);
  return (
    <span className="inline-flex flex-col">
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <input
        id={id}
        inputMode="numeric"
        maxLength={5}
        placeholder="HH:MM"
        autoComplete="off"
        aria-invalid={errors.length > 0 || undefined}
        aria-describedby={errors.length > 0 ? `${id}-error` : undefined}
        className={cx(inputClasses, 'w-20 text-center font-mono tabular-nums')}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
      <FieldErrors id={`${id}-error`} errors={errors} />
    </span>
  );
}

/**
 * A panel's support hours (premium): the time zone, opening ranges per weekday and the message posted
 * in a ticket opened out of hours. Without premium it is shown locked, with why and where to get it.
 */
export function SupportHoursFields({ path, value, onChange, premium }: { path: string; value: SupportHours | null; onChange(value: SupportHours | null): void; premium: boolean }) {
  const t = useT();
  const { scope } = useFieldScope();
  const zones = useMemo(allTimeZones, []);
  const listId = useId();
  const hours = useField(`${path}.hours`);

  if (!premium && value === null) {
    return (
      <div className="flex gap-3 rounded-lg border border-dashed border-surface-300 p-4 text-sm dark:border-surface-700">
        <Lock aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-amber-700 dark:text-amber-400" />
        <div>
          <p className="font-semibold text-surface-900 dark:text-surface-50">{t('hours.locked.title')}</p>
          <p className="mt-1 text-surface-700 dark:text-surface-300">{t('hours.locked.body')}</p>
          <Link to={href('/premium')} className="mt-2 inline-block font-medium text-primary-700 underline underline-offset-2 dark:text-primary-400">
            {t('hours.locked.link')}
          </Link>
        </div>
      </div>
    );
  }

  const setDay = (day: Weekday, ranges: SupportHours['hours'][Weekday]) => value && onChange({ ...value, hours: { ...value.hours, [day]: ranges } });

  return (
    <div className="space-y-4">
      <Toggle
        path={path}
        label={t('hours.enable')}
        checked={value !== null}
        onChange={(on) => onChange(on ? defaultHours(t('hours.defaultMessage')) : null)}
        hint={premium ? t('hours.enableHint') : t('hours.premiumOnly')}
      />
      {value ? (
        <>
          <FieldFrame path={`${path}.timeZone`} label={t('hours.timeZone')} hint={t('hours.timeZoneHint')}>
            {(control) => (
              <>
                <input {...control} list={listId} autoComplete="off" spellCheck={false} className={cx(inputClasses, 'max-w-sm')} value={value.timeZone} onChange={(e) => onChange({ ...value, timeZone: e.target.value })} />
                <datalist id={listId}>
                  {zones.map((zone) => (
                    <option key={zone} value={zone} />
                  ))}
                </datalist>
              </>
            )}
          </FieldFrame>
          <div id={hours.id} tabIndex={-1} className="outline-none">
            <p className="mb-2 text-sm font-medium text-surface-800 dark:text-surface-200">{t('hours.week')}</p>
            <FieldErrors id={`${hours.id}-error`} errors={hours.errors} />
            <ul className="divide-y divide-surface-200 rounded-lg border border-surface-200 dark:divide-surface-800 dark:border-surface-700">
              {WEEKDAYS.map((day) => {
                const ranges = value.hours[day];
                const dayName = t(`weekday.${day}`);
                return (
                  <li key={day} className="flex flex-col gap-2 p-3 sm:flex-row sm:items-start">
                    <span className="w-28 shrink-0 pt-2 text-sm font-medium text-surface-800 dark:text-surface-200">{dayName}</span>
                    <div className="min-w-0 flex-1 space-y-2">
                      {ranges.length === 0 ? <p className="pt-2 text-sm text-surface-500 dark:text-surface-400">{t('hours.closed')}</p> : null}
                      {ranges.map((range, index) => {
                        const base = `${path}.hours.${day}.${index}`;
                        return (
                          // biome-ignore lint/suspicious/noArrayIndexKey: ranges have no id; their order is their identity
                          <div key={index} className="flex flex-wrap items-start gap-2">
                            <TimeInput path={`${base}.from`} label={t('hours.from', { day: dayName, number: index + 1 })} value={range.from} onChange={(from) => setDay(day, ranges.map((r, i) => (i === index ? { ...r, from } : r)))} />
                            <span aria-hidden="true" className="pt-2 text-surface-500">
                              –
                            </span>
                            <TimeInput path={`${base}.to`} label={t('hours.to', { day: dayName, number: index + 1 })} value={range.to} onChange={(to) => setDay(day, ranges.map((r, i) => (i === index ? { ...r, to } : r)))} />
                            <Button size="sm" variant="ghost" className="mt-1" aria-label={t('hours.removeRange', { day: dayName, number: index + 1 })} onClick={() => setDay(day, ranges.filter((_, i) => i !== index))}>
                              <Trash2 aria-hidden="true" className="size-4" />
                            </Button>
                          </div>
                        );
                      })}
                      {ranges.length < SUPPORT_HOURS_RANGES_PER_DAY_MAX ? (
                        <Button
                          size="sm"
                          variant="ghost"
                          aria-label={t('hours.addRangeTo', { day: dayName })}
                          onClick={() => {
                            const last = ranges.at(-1);
                            setDay(day, [...ranges, last ? { from: last.to === '24:00' ? '23:00' : last.to, to: '24:00' } : { from: '09:00', to: '17:00' }]);
                            const id = fieldId(scope, `${path}.hours.${day}.${ranges.length}.from`);
                            requestAnimationFrame(() => document.getElementById(id)?.focus());
                          }}
                        >
                          <Plus aria-hidden="true" className="size-4" />
                          {t('hours.addRange')}
                        </Button>
                      ) : null}
                    </div>
                  </li>
                );
              })}
            </ul>
          </div>
          <TextArea
            path={`${path}.outOfHoursMessage`}
            label={t('hours.message')}
            value={value.outOfHoursMessage}
            onChange={(outOfHoursMessage) => onChange({ ...value, outOfHoursMessage })}
            max={MESSAGE_CONTENT_MAX}
            rows={3}
            required
            markdown
            hint={t('hours.messageHint')}
          />
        </>
      ) : null}
    </div>
  );
}
