import { emojiOf } from './embeds';
import { type ActionRowOut, BUTTON_STYLES, type ButtonOut, type Checker, MESSAGE_LIMITS, type Path, present, ROW_CHILD_TYPES, SELECT_TYPES, type SelectOut } from './model';

/** Validates the custom ids' uniqueness across the whole message and numbers the components. */
export interface ComponentContext {
  customIds: Map<string, Path>;
  nextId: () => number;
}

export function customIdOf(checker: Checker, ctx: ComponentContext, value: unknown, path: Path): string | undefined {
  const id = checker.between(value, path, 1, MESSAGE_LIMITS.customId);
  if (id === undefined) return undefined;
  if (ctx.customIds.has(id)) {
    checker.errors.add(path, 'COMPONENT_CUSTOM_ID_DUPLICATED', 'Component custom id cannot be duplicated');
    return undefined;
  }
  ctx.customIds.set(id, path);
  return id;
}

export function notAllowed(checker: Checker, object: Record<string, unknown>, path: Path, keys: string[], why: string): void {
  for (const key of keys) {
    if (present(object[key])) checker.errors.add([...path, key], 'COMPONENT_INVALID_FIELD', why);
  }
}

export function buttonOf(checker: Checker, ctx: ComponentContext, object: Record<string, unknown>, path: Path): ButtonOut | undefined {
  const style = checker.choice(object.style, [...path, 'style'], BUTTON_STYLES);
  const label = checker.text(object.label, [...path, 'label'], MESSAGE_LIMITS.buttonLabel);
  const emoji = present(object.emoji) ? emojiOf(checker, object.emoji, [...path, 'emoji']) : undefined;
  const disabled = checker.boolean(object.disabled, [...path, 'disabled']);
  if (style === undefined) return undefined;
  const out: ButtonOut = { type: 2, id: ctx.nextId(), style };
  if (style === 5) {
    // A link button: a URL, no custom id.
    if (!present(object.url)) checker.errors.add([...path, 'url'], 'BASE_TYPE_REQUIRED', 'This field is required');
    notAllowed(checker, object, path, ['custom_id', 'sku_id'], 'A link button has a url and no custom_id.');
    const url = checker.url(object.url, [...path, 'url'], ['http:', 'https:', 'discord:']);
    if (url !== undefined) out.url = url;
  } else if (style === 6) {
    // A premium button: an SKU, nothing else.
    const sku = checker.snowflake(object.sku_id, [...path, 'sku_id']);
    if (!present(object.sku_id)) checker.errors.add([...path, 'sku_id'], 'BASE_TYPE_REQUIRED', 'This field is required');
    notAllowed(checker, object, path, ['custom_id', 'url', 'label', 'emoji'], 'A premium button has a sku_id only.');
    if (sku !== undefined) out.sku_id = sku;
  } else {
    notAllowed(checker, object, path, ['url', 'sku_id'], 'Only link buttons have a url, only premium buttons a sku_id.');
    const customId = customIdOf(checker, ctx, object.custom_id, [...path, 'custom_id']);
    if (customId !== undefined) out.custom_id = customId;
  }
  if (style !== 6 && label === undefined && emoji === undefined && !present(object.label) && !present(object.emoji)) {
    checker.errors.add([...path, 'label'], 'BASE_TYPE_REQUIRED', 'A button needs a label or an emoji.');
  }
  if (label !== undefined) out.label = label;
  if (emoji !== undefined) out.emoji = emoji;
  if (disabled !== undefined) out.disabled = disabled;
  return out;
}

export function selectOf(checker: Checker, ctx: ComponentContext, object: Record<string, unknown>, type: SelectOut['type'], path: Path): SelectOut | undefined {
  const customId = customIdOf(checker, ctx, object.custom_id, [...path, 'custom_id']);
  const placeholder = checker.text(object.placeholder, [...path, 'placeholder'], MESSAGE_LIMITS.selectPlaceholder);
  const min = checker.integer(object.min_values, [...path, 'min_values'], 0, MESSAGE_LIMITS.selectOptions);
  const max = checker.integer(object.max_values, [...path, 'max_values'], 1, MESSAGE_LIMITS.selectOptions);
  const disabled = checker.boolean(object.disabled, [...path, 'disabled']);
  const out: SelectOut = { type, id: ctx.nextId(), custom_id: customId ?? '', min_values: min ?? 1, max_values: max ?? 1 };
  if (type === 3) {
    const options = checker.list(object.options, [...path, 'options']);
    if (!options) {
      if (!present(object.options)) checker.errors.add([...path, 'options'], 'BASE_TYPE_REQUIRED', 'This field is required');
    } else if (options.length < 1 || options.length > MESSAGE_LIMITS.selectOptions) {
      checker.errors.add([...path, 'options'], 'BASE_TYPE_BAD_LENGTH', `Must be between 1 and ${MESSAGE_LIMITS.selectOptions} in length.`);
    } else {
      out.options = [];
      options.forEach((raw, index) => {
        const optionPath = [...path, 'options', index];
        const item = checker.object(raw, optionPath);
        if (!item) return;
        const label = checker.between(item.label, [...optionPath, 'label'], 1, MESSAGE_LIMITS.optionLabel);
        const value = checker.between(item.value, [...optionPath, 'value'], 1, MESSAGE_LIMITS.optionValue);
        const description = checker.text(item.description, [...optionPath, 'description'], MESSAGE_LIMITS.optionDescription);
        const emoji = present(item.emoji) ? emojiOf(checker, item.emoji, [...optionPath, 'emoji']) : undefined;
        const isDefault = checker.boolean(item.default, [...optionPath, 'default']);
        if (label !== undefined && value !== undefined) {
          out.options!.push({
            label,
            value,
            ...(description !== undefined ? { description } : {}),
            ...(emoji !== undefined ? { emoji } : {}),
            ...(isDefault !== undefined ? { default: isDefault } : {}),
          });
        }
      });
      if (max !== undefined && max > options.length) {
        checker.errors.add([...path, 'max_values'], 'NUMBER_TYPE_MAX', `Int value should be less than or equal to ${options.length}.`);
      }
    }
  } else if (present(object.options)) {
    checker.errors.add([...path, 'options'], 'COMPONENT_INVALID_FIELD', 'Only string selects (type 3) have options.');
  }
  if (min !== undefined && max !== undefined && min > max) {
    checker.errors.add([...path, 'min_values'], 'NUMBER_TYPE_MAX', `Int value should be less than or equal to ${max}.`);
  }
  if (type === 8 && present(object.channel_types)) {
    const types = checker.list(object.channel_types, [...path, 'channel_types']);
    if (types) out.channel_types = types.filter((t): t is number => Number.isInteger(t));
  }
  if (placeholder !== undefined) out.placeholder = placeholder;
  if (disabled !== undefined) out.disabled = disabled;
  return out;
}

export function rowOf(checker: Checker, ctx: ComponentContext, raw: unknown, path: Path): ActionRowOut | undefined {
  const row = checker.object(raw, path);
  if (!row) return undefined;
  if (checker.choice(row.type, [...path, 'type'], [1] as const) === undefined) return undefined;
  const children = checker.list(row.components, [...path, 'components']);
  if (!children) {
    if (!present(row.components)) checker.errors.add([...path, 'components'], 'BASE_TYPE_REQUIRED', 'This field is required');
    return undefined;
  }
  if (children.length < 1 || children.length > MESSAGE_LIMITS.rowWidth) {
    checker.errors.add([...path, 'components'], 'BASE_TYPE_BAD_LENGTH', `Must be between 1 and ${MESSAGE_LIMITS.rowWidth} in length.`);
    return undefined;
  }
  const out: ActionRowOut = { type: 1, id: ctx.nextId(), components: [] };
  let width = 0;
  children.forEach((rawChild, index) => {
    const childPath = [...path, 'components', index];
    const child = checker.object(rawChild, childPath);
    if (!child) return;
    const type = checker.choice(child.type, [...childPath, 'type'], ROW_CHILD_TYPES);
    if (type === undefined) return;
    width += SELECT_TYPES.has(type) ? MESSAGE_LIMITS.rowWidth : 1;
    if (width > MESSAGE_LIMITS.rowWidth) {
      checker.errors.add(childPath, 'COMPONENT_LAYOUT_WIDTH_EXCEEDED', 'The specified component exceeds the maximum width');
      return;
    }
    const component = type === 2 ? buttonOf(checker, ctx, child, childPath) : selectOf(checker, ctx, child, type, childPath);
    if (component) out.components.push(component);
  });
  return out;
}

export function componentsOf(checker: Checker, raw: unknown): ActionRowOut[] | undefined {
  const rows = checker.list(raw, ['components']);
  if (!rows) return undefined;
  if (rows.length > MESSAGE_LIMITS.actionRows) {
    checker.errors.add(['components'], 'BASE_TYPE_MAX_LENGTH', `Must be ${MESSAGE_LIMITS.actionRows} or fewer in length.`);
    return undefined;
  }
  let next = 0;
  const ctx: ComponentContext = { customIds: new Map(), nextId: () => ++next };
  const out: ActionRowOut[] = [];
  rows.forEach((row, index) => {
    const actionRowOut = rowOf(checker, ctx, row, ['components', index]);
    if (actionRowOut) out.push(actionRowOut);
  });
  return out;
}
