/**
 * @tickety/ui: design tokens (theme.css) and accessible primitives. A Module Federation singleton:
 * the shell and every remote render the same components. No icons or routing here: pages pass icons
 * in as nodes, and links that look like buttons use `buttonClasses()`.
 */
export { Avatar, initials } from './avatar';
export { Alert, Badge, type Tone } from './badge';
export { Button, type ButtonProps, type ButtonSize, type ButtonVariant, buttonClasses } from './button';
export { Card, EmptyState, PageHeader } from './card';
export { ConfirmDialog, type ConfirmDialogProps } from './confirm-dialog';
export { cx } from './cx';
export { inputClasses, TextField, type TextFieldProps } from './field';
export { LoadFailed, type LoadFailedProps } from './load-failed';
export { Skeleton, Spinner } from './spinner';
export { type SortDirection, Table, type TableColumn, type TableProps, type TableSort } from './table';
export { Tooltip } from './tooltip';
export { ENGLISH_UI_TEXT, type UiText, UiTextProvider, useUiText } from './ui-text';
