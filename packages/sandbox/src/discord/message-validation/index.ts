import { componentsOf } from './components';
import { embedsOf } from './embeds';
import { Checker, charCount, FormErrors, IS_COMPONENTS_V2, isObject, MESSAGE_LIMITS, type MessageInput, present, SETTABLE_FLAGS, type ValidationResult } from './model';

export { type ActionRowOut, type ButtonOut, charCount, type EmbedOut, type EmojiOut, MESSAGE_LIMITS, type SelectOut } from './model';

/**
 * Checks a create (`mode: 'create'`) or edit body. Keys the body does not have are left out of the
 * result; in an edit, `null` clears a field (content '', embeds [], components []).
 */
export function validateMessage(body: unknown, mode: 'create' | 'edit'): ValidationResult {
  if (body !== undefined && body !== null && !isObject(body)) {
    const errors = new FormErrors();
    errors.add([], 'MODEL_TYPE_CONVERT', 'Only dictionaries may be used in a ModelType');
    return { ok: false, status: 400, body: { message: 'Invalid Form Body', code: 50035, errors: errors.tree } };
  }
  const fields = (body ?? {}) as Record<string, unknown>;
  const checker = new Checker();
  const value: MessageInput = {};

  if (fields.content === null) value.content = '';
  else if (fields.content !== undefined) {
    const content = checker.string(fields.content, ['content']);
    if (content !== undefined) {
      if (charCount(content) > MESSAGE_LIMITS.content) checker.errors.add(['content'], 'BASE_TYPE_MAX_LENGTH', `Must be ${MESSAGE_LIMITS.content} or fewer in length.`);
      else value.content = content;
    }
  }
  if (fields.embeds === null) value.embeds = [];
  else if (fields.embeds !== undefined) {
    const embeds = embedsOf(checker, fields.embeds);
    if (embeds) value.embeds = embeds;
  }
  if (fields.components === null) value.components = [];
  else if (fields.components !== undefined) {
    const components = componentsOf(checker, fields.components);
    if (components) value.components = components;
  }
  if (present(fields.flags)) {
    const flags = checker.integer(fields.flags, ['flags'], 0, 2 ** 31 - 1);
    if (flags !== undefined) {
      if (flags & IS_COMPONENTS_V2) {
        checker.errors.add(['flags'], 'SANDBOX_UNSUPPORTED', 'The sandbox does not implement IS_COMPONENTS_V2 (1 << 15) layout components.');
      } else value.flags = flags & SETTABLE_FLAGS;
    }
  }
  if (mode === 'create') {
    const tts = checker.boolean(fields.tts, ['tts']);
    if (tts !== undefined) value.tts = tts;
    if (present(fields.nonce)) {
      if (typeof fields.nonce === 'number' && Number.isSafeInteger(fields.nonce)) value.nonce = fields.nonce;
      else {
        const nonce = checker.text(fields.nonce, ['nonce'], MESSAGE_LIMITS.nonce);
        if (nonce !== undefined) value.nonce = nonce;
      }
    }
    const enforceNonce = checker.boolean(fields.enforce_nonce, ['enforce_nonce']);
    if (enforceNonce !== undefined) value.enforceNonce = enforceNonce;
    checker.object(fields.allowed_mentions, ['allowed_mentions']);
    checker.object(fields.message_reference, ['message_reference']);
  }
  if (!checker.errors.empty) return { ok: false, status: 400, body: { message: 'Invalid Form Body', code: 50035, errors: checker.errors.tree } };
  return { ok: true, value };
}

/** Discord's 50006: a message needs content, an embed or a component. */
export function isEmptyMessage(member: { content: string; embeds: readonly unknown[]; components: readonly unknown[] }): boolean {
  return member.content === '' && member.embeds.length === 0 && member.components.length === 0;
}
