import { forwardRef, type InputHTMLAttributes, type ReactNode, useId } from 'react';
import { cx } from './cx';

export const inputClasses = cx(
  'block w-full rounded-lg border border-surface-300 bg-white px-3 py-2 text-sm text-surface-900 shadow-sm placeholder:text-surface-400',
  'focus:border-primary-500 focus:outline-none focus:ring-2 focus:ring-primary-500/30',
  'aria-invalid:border-red-500 aria-invalid:focus:ring-red-500/30',
  'dark:border-surface-700 dark:bg-surface-900 dark:text-surface-50 dark:placeholder:text-surface-500',
);

export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  label: ReactNode;
  /** Shown under the field; linked with aria-describedby. */
  hint?: ReactNode;
  /** An error message: marks the field invalid and is announced with it. */
  error?: ReactNode;
  /** Hide the label visually (it stays for screen readers). */
  hideLabel?: boolean;
  id?: string;
}

/** A labelled input with an optional hint and error, wired for assistive technology. */
export const TextField = forwardRef<HTMLInputElement, TextFieldProps>(function TextField(
  { label, hint, error, hideLabel = false, id, className, ...rest },
  ref,
) {
  const auto = useId();
  const inputId = id ?? auto;
  const hintId = hint ? `${inputId}-hint` : undefined;
  const errorId = error ? `${inputId}-error` : undefined;
  return (
    <div className={className}>
      <label htmlFor={inputId} className={cx('mb-1 block text-sm font-medium text-surface-800 dark:text-surface-200', hideLabel && 'sr-only')}>
        {label}
      </label>
      <input
        ref={ref}
        id={inputId}
        className={inputClasses}
        aria-invalid={error ? true : undefined}
        aria-describedby={[hintId, errorId].filter(Boolean).join(' ') || undefined}
        {...rest}
      />
      {hint ? (
        <p id={hintId} className="mt-1 text-xs text-surface-500 dark:text-surface-400">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="mt-1 text-xs font-medium text-red-600 dark:text-red-400">
          {error}
        </p>
      ) : null}
    </div>
  );
});
