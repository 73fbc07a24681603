import { type FormQuestion, MODAL_TEXT_INPUTS_MAX, TEXT_INPUT_LABEL_MAX, TEXT_INPUT_PLACEHOLDER_MAX, TEXT_INPUT_VALUE_MAX } from '@tickety/api-contract';
import { formatNumber } from '@tickety/shared';
import { Button } from '@tickety/ui';
import ArrowDown from 'lucide-react/icons/arrow-down';
import ArrowUp from 'lucide-react/icons/arrow-up';
import Plus from 'lucide-react/icons/plus';
import Trash2 from 'lucide-react/icons/trash-2';
import { useId } from 'react';
import { useT } from './i18n';
import { fieldId } from './field-id';
import { ChoiceGroup, FieldErrors, NumberInput, TextInput, Toggle, useField, useFieldScope } from './fields';

/** `q1`, `q2`, …: the first id no question of the form has (ids stay with their question when reordered). */
function freeQuestionId(questions: FormQuestion[]): string {
  const used = new Set(questions.map((q) => q.id));
  for (let n = 1; ; n++) if (!used.has(`q${n}`)) return `q${n}`;
}

/** A form of up to 5 questions: add, remove, move up and down, short or paragraph, required, lengths, placeholder. */
export function FormQuestions({ path, value, onChange }: { path: string; value: FormQuestion[]; onChange(value: FormQuestion[]): void }) {
  const t = useT();
  const { id, errors } = useField(path);
  const { scope } = useFieldScope();
  const limitId = useId();
  const full = value.length >= MODAL_TEXT_INPUTS_MAX;
  const set = (index: number, change: Partial<FormQuestion>) => onChange(value.map((q, i) => (i === index ? { ...q, ...change } : q)));
  const move = (index: number, by: -1 | 1) => {
    const next = [...value];
    const [q] = next.splice(index, 1);
    next.splice(index + by, 0, q!);
    onChange(next);
    // Keep the keyboard on the moved question's button.
    requestAnimationFrame(() => document.getElementById(`${id}-${q!.id}-${by < 0 ? 'up' : 'down'}`)?.focus());
  };

  return (
    <div className="space-y-3">
      {value.length === 0 ? <p className="text-sm text-surface-600 dark:text-surface-400">{t('form.none')}</p> : null}
      <ol className="space-y-3">
        {value.map((question, index) => {
          const base = `${path}.${index}`;
          const number = index + 1;
          return (
            <li key={question.id} className="rounded-lg border border-surface-200 p-3 dark:border-surface-700">
              <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
                <h4 className="text-sm font-semibold text-surface-900 dark:text-surface-50">{t('form.question', { number })}</h4>
                <div className="flex gap-1">
                  <Button
                    id={`${id}-${question.id}-up`}
                    size="sm"
                    variant="ghost"
                    aria-label={t('form.moveUp', { number })}
                    disabled={index === 0}
                    onClick={() => move(index, -1)}
                  >
                    <ArrowUp aria-hidden="true" className="size-4" />
                  </Button>
                  <Button
                    id={`${id}-${question.id}-down`}
                    size="sm"
                    variant="ghost"
                    aria-label={t('form.moveDown', { number })}
                    disabled={index === value.length - 1}
                    onClick={() => move(index, 1)}
                  >
                    <ArrowDown aria-hidden="true" className="size-4" />
                  </Button>
                  <Button size="sm" variant="ghost" className="text-red-700 dark:text-red-400" aria-label={t('form.remove', { number })} onClick={() => onChange(value.filter((_, i) => i !== index))}>
                    <Trash2 aria-hidden="true" className="size-4" />
                  </Button>
                </div>
              </div>
              <div className="space-y-3">
                <TextInput path={`${base}.label`} label={t('form.label')} value={question.label} onChange={(v) => set(index, { label: v })} max={TEXT_INPUT_LABEL_MAX} required />
                <ChoiceGroup
                  path={`${base}.style`}
                  legend={t('form.style')}
                  value={question.style}
                  onChange={(style) => set(index, { style })}
                  options={[
                    { value: 'short', label: t('form.style.short') },
                    { value: 'paragraph', label: t('form.style.paragraph') },
                  ]}
                />
                <Toggle path={`${base}.required`} label={t('form.required')} checked={question.required} onChange={(required) => set(index, { required })} />
                <div className="grid gap-3 sm:grid-cols-2">
                  <NumberInput path={`${base}.minLength`} label={t('form.minLength')} value={question.minLength} min={0} max={TEXT_INPUT_VALUE_MAX} onChange={(v) => set(index, { minLength: v ?? 0 })} />
                  <NumberInput
                    path={`${base}.maxLength`}
                    label={t('form.maxLength')}
                    value={question.maxLength}
                    min={1}
                    max={TEXT_INPUT_VALUE_MAX}
                    onChange={(v) => set(index, { maxLength: v ?? TEXT_INPUT_VALUE_MAX })}
                    hint={t('form.lengthHint', { max: formatNumber(TEXT_INPUT_VALUE_MAX) })}
                  />
                </div>
                <TextInput path={`${base}.placeholder`} label={t('form.placeholder')} value={question.placeholder} onChange={(v) => set(index, { placeholder: v })} max={TEXT_INPUT_PLACEHOLDER_MAX} />
              </div>
            </li>
          );
        })}
      </ol>
      <div id={id} tabIndex={-1} className="outline-none">
        <FieldErrors id={`${id}-error`} errors={errors} />
      </div>
      <div className="flex flex-wrap items-center gap-3">
        <Button
          variant="secondary"
          size="sm"
          aria-disabled={full || undefined}
          aria-describedby={full ? limitId : undefined}
          className={full ? 'cursor-not-allowed opacity-50' : undefined}
          onClick={() => {
            if (full) return;
            onChange([...value, { id: freeQuestionId(value), label: '', style: 'short', required: true, minLength: 0, maxLength: TEXT_INPUT_VALUE_MAX, placeholder: '' }]);
            const labelId = fieldId(scope, `${path}.${value.length}.label`);
            requestAnimationFrame(() => document.getElementById(labelId)?.focus());
          }}
        >
          <Plus aria-hidden="true" className="size-4" />
          {t('form.add')}
        </Button>
        <span id={limitId} className="text-xs text-surface-600 dark:text-surface-400">
          {t('form.count', { count: value.length, max: MODAL_TEXT_INPUTS_MAX })}
        </span>
      </div>
    </div>
  );
}
