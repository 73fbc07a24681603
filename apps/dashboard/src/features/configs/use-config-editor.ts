/**
 * The state of one editor of the Panel Menu (a panel, a multi-panel, the general settings): its
 * draft, the shared schema's issues on every change, and the save of the whole configuration against
 * the version the draft started from.
 */
import { type ServerConfig, serverConfigSchema } from '@tickety/api-contract';
import { useCallback, useDeferredValue, useMemo, useRef, useState } from 'react';
import { failureCode, failureText } from '../../lib/failures';
import { useT } from './i18n';
import { type LiveConfig, useSaveServerConfigMutation } from './api';
import type { MenuView } from './config-draft';
import { sameJson } from './config-edit';
import { type IssuePath, issueText, type SchemaIssue, splitApiIssue } from './issues';

/** What an editor edits, and where it sits in the configuration. */
export interface EditorTarget<D> {
  /** The item in a saved configuration (undefined: not there, e.g. new or deleted meanwhile). */
  from(config: ServerConfig): D | undefined;
  /** The configuration with the draft in it (what a save sends). */
  apply(config: ServerConfig, draft: D): ServerConfig;
  /** The draft's own part of an issue path in the applied configuration (`embed.title`), or null when the issue is elsewhere. */
  own(path: IssuePath, applied: ServerConfig, draft: D): string | null;
  /** The draft carried over to a newer configuration (a new item whose id someone took meanwhile). */
  rebase?(draft: D, config: ServerConfig): D;
  /** Where the Panel Menu goes once the draft is saved. */
  savedView(draft: D): MenuView;
  /**
   * Whether the configuration with `next` applied has exactly the issues it had with `previous`
   * applied (see panelIssuesUnchanged): then the last check stands. Absent: every change is checked.
   */
  sameIssues?(previous: D, next: D): boolean;
}

interface ElsewhereIssue {
  path: string;
  message: string;
}

/** Issues of the draft: by field (the draft's own path) and those elsewhere in the configuration. */
export interface Validation {
  fields: Map<string, string[]>;
  elsewhere: ElsewhereIssue[];
  count: number;
}

/** Whether two checks found the same issues (by field, in order, and elsewhere). */
function sameValidation(left: Validation, right: Validation): boolean {
  return left.count === right.count && sameJson([...left.fields], [...right.fields]) && sameJson(left.elsewhere, right.elsewhere);
}

type ReloadNotice = 'kept' | 'replaced' | 'gone' | null;

/** The draft before its first check (the editor's first render): no issue shown yet. */
const UNCHECKED = Symbol('unchecked');
const NOTHING_FOUND: Validation = { fields: new Map(), elsewhere: [], count: 0 };

export interface ConfigEditor<D> {
  draft: D;
  /** Changes the draft (and clears what the last save said about it). */
  update(change: (draft: D) => D): void;
  base: LiveConfig;
  dirty: boolean;
  validation: Validation;
  /** The server's word on a field (1001), by the draft's own path. */
  serverErrors: Map<string, string>;
  /** The field to focus after a failed save (its own path; '' for the summary). */
  focusRequest: { path: string; tick: number } | null;
  showSummary: boolean;
  saving: boolean;
  /** 1013: someone saved meanwhile (the API's sentence). */
  conflict: string | null;
  /** Any other failure of the save (network, 503, a 1001 outside the draft). */
  failure: string | null;
  notice: ReloadNotice;
  save(): Promise<void>;
  /** After a conflict: load the newest version (keeping the draft when they did not change this item). */
  reload(): Promise<void>;
  discard(): void;
}

interface Options<D> {
  server: string;
  /** The configuration the draft starts from. */
  base: LiveConfig;
  /** The draft to start with (the saved item, a new one, or a draft kept from earlier). */
  initial: D;
  /** What counts as "no changes" (the saved item; the new item as created). */
  pristine: D;
  target: EditorTarget<D>;
  onSaved(live: LiveConfig, view: MenuView): void;
  refetch(): Promise<LiveConfig>;
}

export function useConfigEditor<D>({ server, base: startBase, initial, pristine, target, onSaved, refetch }: Options<D>): ConfigEditor<D> {
  const t = useT();
  const [base, setBase] = useState(startBase);
  const [draft, setDraft] = useState<D>(initial);
  const [clean, setClean] = useState<D>(pristine);
  const [serverErrors, setServerErrors] = useState<Map<string, string>>(() => new Map());
  const [focusRequest, setFocusRequest] = useState<ConfigEditor<D>['focusRequest']>(null);
  const [showSummary, setShowSummary] = useState(false);
  const [conflict, setConflict] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [notice, setNotice] = useState<ReloadNotice>(null);
  const [saveConfig, saveState] = useSaveServerConfigMutation();
  const targetRef = useRef(target);
  targetRef.current = target;

  const savedPanels = base.config.panels.length;
  const limits = useMemo(
    () => ({ panelLimit: base.panelLimit, premium: base.premium, savedPanels, tagLimit: base.tagLimit, blocklistLimit: base.blocklistLimit }),
    [base.panelLimit, base.premium, savedPanels, base.tagLimit, base.blocklistLimit],
  );
  const schema = useMemo(() => serverConfigSchema(limits), [limits]);

  const check = useCallback(
    (draft: D): Validation => {
      const applied = targetRef.current.apply(base.config, draft);
      const result = schema.safeParse(applied);
      const fields = new Map<string, string[]>();
      const elsewhere: ElsewhereIssue[] = [];
      if (!result.success) {
        for (const issue of result.error.issues as SchemaIssue[]) {
          const path = issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p));
          const message = issueText(issue, applied, limits, t);
          const own = targetRef.current.own(path, applied, draft);
          if (own === null) elsewhere.push({ path: path.join('.'), message });
          else fields.set(own, [...(fields.get(own) ?? []), message]);
        }
      }
      return { fields, elsewhere, count: result.success ? 0 : result.error.issues.length };
    },
    [base.config, schema, limits, t],
  );

  // The preview follows every keystroke; the check may trail it by a render under load. The first
  // check (a hundred panels, and the schema's emoji pattern compiled on first use: ~200 ms at 4x
  // CPU) runs after the editor has painted, not in the click that opened it.
  const checked = useDeferredValue<D | typeof UNCHECKED>(draft, UNCHECKED);
  // The same issues as before keep the same object: the fields (through the editor's context) render
  // again only when what they say changes. A change the target knows leaves the issues as they were
  // (a keystroke in a panel that stays valid) is not checked again: the last check stands.
  const lastCheck = useRef<{ check: typeof check; draft: D; validation: Validation } | null>(null);
  const validation = useMemo(() => {
    if (checked === UNCHECKED) return NOTHING_FOUND;
    const last = lastCheck.current;
    if (last && last.check === check && targetRef.current.sameIssues?.(last.draft, checked)) return last.validation;
    const next = check(checked);
    return last && sameValidation(last.validation, next) ? last.validation : next;
  }, [check, checked]);
  if (checked !== UNCHECKED) lastCheck.current = { check, draft: checked, validation };

  const update = useCallback((change: (draft: D) => D) => {
    setDraft((d) => change(d));
    setServerErrors((errors) => (errors.size === 0 ? errors : new Map()));
    setFailure(null);
    setNotice(null);
  }, []);

  const save = useCallback(async () => {
    const now = check(draft);
    if (now.count > 0) {
      setShowSummary(true);
      const first = [...now.fields.keys()][0];
      setFocusRequest({ path: first ?? '', tick: Date.now() });
      return;
    }
    setShowSummary(false);
    setFailure(null);
    setConflict(null);
    setNotice(null);
    const config = target.apply(base.config, draft);
    try {
      const saved = await saveConfig({ server, expectedVersion: base.version, config }).unwrap();
      const item = target.from(saved.config) ?? draft;
      setBase(saved);
      setDraft(item);
      setClean(item);
      onSaved(saved, target.savedView(item));
    } catch (error) {
      const code = failureCode(error);
      if (code === 1013) {
        setConflict(failureText(error));
        return;
      }
      const apiIssue = code === 1001 ? splitApiIssue((error as { data: { message: string } }).data.message) : null;
      const own = apiIssue ? target.own(apiIssue.path, config, draft) : null;
      if (apiIssue && own !== null) {
        // Our own check would say it in the reader's language; the server's sentence otherwise.
        const local = now.fields.get(own)?.[0];
        setServerErrors(new Map([[own, local ?? apiIssue.reason]]));
        setFocusRequest({ path: own, tick: Date.now() });
        return;
      }
      setFailure(apiIssue ? t('editor.rejected', { message: apiIssue.reason }) : failureText(error));
      setFocusRequest({ path: '', tick: Date.now() });
    }
  }, [check, draft, target, base, saveConfig, server, onSaved, t]);

  const reload = useCallback(async () => {
    let fresh: LiveConfig;
    try {
      fresh = await refetch();
    } catch {
      return;
    }
    const theirs = target.from(fresh.config);
    const started = target.from(base.config);
    setConflict(null);
    setBase(fresh);
    if (sameJson(theirs, started)) {
      // They changed other parts: the draft applies to their version as it is.
      setDraft((d) => (target.rebase ? target.rebase(d, fresh.config) : d));
      setNotice('kept');
    } else if (theirs === undefined) {
      setNotice('gone');
    } else {
      setDraft(theirs);
      setClean(theirs);
      setNotice('replaced');
    }
  }, [refetch, target, base.config]);

  const discard = useCallback(() => {
    setDraft(clean);
    setServerErrors(new Map());
    setShowSummary(false);
    setFailure(null);
  }, [clean]);

  return {
    draft,
    update,
    base,
    dirty: !sameJson(draft, clean),
    validation,
    serverErrors,
    focusRequest,
    showSummary: showSummary && validation.count > 0,
    saving: saveState.isLoading,
    conflict,
    failure,
    notice,
    save,
    reload,
    discard,
  };
}
