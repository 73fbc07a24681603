/** A panel's form: the Discord modal a user fills in to open a ticket. */
import { z } from '../zod-setup';
import { discordText, forEachDuplicate, formatCount, ShortId } from './fields';
import { MODAL_TEXT_INPUTS_MAX, MODAL_TITLE_MAX, TEXT_INPUT_LABEL_MAX, TEXT_INPUT_PLACEHOLDER_MAX, TEXT_INPUT_VALUE_MAX } from './limits';

export const FORM_QUESTION_STYLES = ['short', 'paragraph'] as const;

const lengthBound = (min: number, what: string) =>
  z
    .int({ error: `The ${what} length must be a whole number.` })
    .min(min, `The ${what} length must be at least ${min}.`)
    .max(TEXT_INPUT_VALUE_MAX, `The ${what} length must be at most ${formatCount(TEXT_INPUT_VALUE_MAX)}.`);

/** One question: a Discord text input. */
export const FormQuestion = z
  .object({
    /** Stable across reordering, so answers stay matched to their question. */
    id: ShortId,
    label: discordText(TEXT_INPUT_LABEL_MAX, { required: true }),
    style: z.enum(FORM_QUESTION_STYLES, { error: 'Must be short (one line) or paragraph.' }),
    required: z.boolean(),
    /** 0 to 4,000 (Discord's `min_length`). */
    minLength: lengthBound(0, 'minimum'),
    /** 1 to 4,000 (Discord's `max_length`), not below `minLength`. */
    maxLength: lengthBound(1, 'maximum'),
    placeholder: discordText(TEXT_INPUT_PLACEHOLDER_MAX),
  })
  .superRefine((question, ctx) => {
    // Only between two bounds that are each valid: a bound out of range has its own message.
    const inRange = (n: number, min: number) => Number.isInteger(n) && n >= min && n <= TEXT_INPUT_VALUE_MAX;
    if (inRange(question.minLength, 0) && inRange(question.maxLength, 1) && question.minLength > question.maxLength) {
      ctx.addIssue({
        code: 'custom',
        path: ['minLength'],
        input: question.minLength,
        message: `The minimum length (${formatCount(question.minLength)}) is more than the maximum length (${formatCount(question.maxLength)}).`,
      });
    }
  });
export type FormQuestion = z.infer<typeof FormQuestion>;

/** Up to 5 questions (Discord's text inputs per modal), each id once. */
export const FormQuestions = z
  .array(FormQuestion)
  .max(MODAL_TEXT_INPUTS_MAX, `A form has at most ${MODAL_TEXT_INPUTS_MAX} questions (Discord's limit for one modal).`)
  .superRefine((questions, ctx) => {
    forEachDuplicate(
      questions,
      (q) => q.id,
      (index) =>
        ctx.addIssue({ code: 'custom', path: [index, 'id'], input: questions[index]?.id, message: 'Another question of this form has the same id.' }),
    );
  });

/** The title of the form's modal (1 to 45 characters). */
export const FormTitle = discordText(MODAL_TITLE_MAX, { required: true });
