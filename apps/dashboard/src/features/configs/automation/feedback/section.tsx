/**
 * The Automation page's Feedback tab: whether the bot asks a ticket's opener for a rating (1 to 5
 * stars) and a comment after the ticket closes (the server's switch, each panel's on / off / the
 * server's), the question's text, and a live preview of the direct message the opener gets. Saved
 * with the rest of the configuration against the version it started from.
 */
import { FEEDBACK_BOT_TEXT, FEEDBACK_QUESTION_MAX, type FeedbackSettings, feedbackWanted, isLocale, type ServerConfig } from '@tickety/api-contract';
import { Link, useRuntimeConfig } from '@tickety/shared';
import { Alert, Button, buttonClasses } from '@tickety/ui';
import RotateCcw from 'lucide-react/icons/rotate-ccw';
import Save from 'lucide-react/icons/save';
import { useEffect, useId, useMemo, useRef } from 'react';
import { MessagePreview } from '../../../../components/discord/message-preview';
import { href } from '../../../../lib/hrefs';
import { useAreaWrite, useServerName } from '../../../../lib/server-access';
import { FieldContext, type FieldScope, focusField, Section, SelectInput, TextArea, Toggle } from '../../fields';
import { FormModalPreview, PreviewPane } from '../../preview-pane';
import { type EditorTarget, useConfigEditor } from '../../use-config-editor';
import type { SectionProps } from '../section-props';
import { useT } from './i18n';

/** The tab's draft: the server's settings and each panel's choice (null: the server's). */
interface FeedbackDraft {
  feedback: FeedbackSettings;
  panels: Record<string, boolean | null>;
}

type PanelChoice = 'server' | 'on' | 'off';
const choiceOf = (value: boolean | null | undefined): PanelChoice => (value === true ? 'on' : value === false ? 'off' : 'server');
const choiceValue = (choice: PanelChoice): boolean | null => (choice === 'on' ? true : choice === 'off' ? false : null);

const TARGET: EditorTarget<FeedbackDraft> = {
  from: (config) => ({ feedback: config.feedback, panels: Object.fromEntries(config.panels.map((panel) => [panel.id, panel.feedback])) }),
  apply: (config, draft): ServerConfig => ({
    ...config,
    feedback: draft.feedback,
    panels: config.panels.map((panel) => (panel.id in draft.panels ? { ...panel, feedback: draft.panels[panel.id] ?? null } : panel)),
  }),
  own: (path, applied) => {
    if (path[0] === 'feedback' && typeof path[1] === 'string') return `feedback.${path[1]}`;
    if (path[0] === 'panels' && typeof path[1] === 'number' && path[2] === 'feedback') return `panels.${applied.panels[path[1]]?.id ?? path[1]}`;
    return null;
  },
  // Panels added or removed meanwhile: the draft keeps its choices for the panels that are still there.
  rebase: (draft, config) => ({ ...draft, panels: Object.fromEntries(config.panels.map((panel) => [panel.id, panel.id in draft.panels ? (draft.panels[panel.id] ?? null) : panel.feedback])) }),
  savedView: () => ({ kind: 'list' }),
  sameIssues: (previous, next) => previous.feedback.question.length <= FEEDBACK_QUESTION_MAX && next.feedback.question.length <= FEEDBACK_QUESTION_MAX && previous.feedback.enabled === next.feedback.enabled,
};

/** The direct message and the comment box, as the opener sees them in the server's language. */
function FeedbackPreview({ draft, config }: { draft: FeedbackDraft; config: ServerConfig }) {
  const t = useT();
  const runtime = useRuntimeConfig();
  const serverName = useServerName();
  const language = isLocale(config.general.language) ? config.general.language : 'en';
  const words = FEEDBACK_BOT_TEXT[language];
  const question = draft.feedback.question.trim() || words.question;
  const number = 2431;
  const asking = config.panels.some((panel) => feedbackWanted(draft.feedback, { feedback: draft.panels[panel.id] ?? null }));
  const payload = {
    embeds: [{ title: question, description: words.closed.replace('{number}', String(number)).replace('{server}', serverName ?? t('feedback.preview.server')), color: 0x10b981 }],
    components: [{ type: 1 as const, components: [1, 2, 3, 4, 5].map((stars) => ({ type: 2 as const, style: 2 as const, label: `${stars} ★`, custom_id: `feedback:${stars}` })) }],
  };
  return (
    <PreviewPane
      tabs={[
        { id: 'message', label: t('feedback.preview.message'), render: () => <MessagePreview payload={payload} botName={runtime.productName} /> },
        {
          id: 'comment',
          label: t('feedback.preview.comment'),
          render: () => (
            <FormModalPreview
              title={words.comment}
              questions={[{ id: 'comment', label: words.comment, style: 'paragraph', required: false, minLength: 0, maxLength: 1000, placeholder: words.placeholder }]}
            />
          ),
        },
      ]}
      note={
        <>
          {t('feedback.preview.note', { number })} {words.thanks}
          {asking ? null : <span className="mt-1 block font-medium">{t('feedback.preview.off')}</span>}
        </>
      }
    />
  );
}

export default function FeedbackSection({ server, live, onSaved, onRefetch }: SectionProps) {
  const t = useT();
  const scope = useId();
  const headingId = useId();
  const failureRef = useRef<HTMLDivElement>(null);
  const write = useAreaWrite('panels');
  const initial = useMemo(() => TARGET.from(live.config)!, [live.config]);
  const editor = useConfigEditor<FeedbackDraft>({
    server,
    base: live,
    initial,
    pristine: initial,
    target: TARGET,
    onSaved: (saved) => onSaved(saved),
    refetch: onRefetch,
  });
  const { draft, validation, serverErrors, base } = editor;
  const config = base.config;
  const language = isLocale(config.general.language) ? config.general.language : 'en';

  useEffect(() => {
    if (editor.focusRequest) focusField(scope, editor.focusRequest.path, failureRef);
  }, [editor.focusRequest, scope]);

  const fields = useMemo<FieldScope>(
    () => ({
      scope,
      errors: (path) => {
        const own = validation.fields.get(path) ?? [];
        const server = serverErrors.get(path);
        return server && !own.includes(server) ? [...own, server] : own;
      },
      under: (path) => [...validation.fields.entries()].filter(([key]) => key.startsWith(`${path}.`)).flatMap(([, messages]) => messages),
    }),
    [scope, validation, serverErrors],
  );

  const setFeedback = (change: Partial<FeedbackSettings>) => {
    editor.update((d) => ({ ...d, feedback: { ...d.feedback, ...change } }));
  };
  const setPanel = (id: string, choice: PanelChoice) => {
    editor.update((d) => ({ ...d, panels: { ...d.panels, [id]: choiceValue(choice) } }));
  };
  const serverState = t(draft.feedback.enabled ? 'feedback.state.on' : 'feedback.state.off');
  const asking = config.panels.filter((panel) => feedbackWanted(draft.feedback, { feedback: draft.panels[panel.id] ?? null })).length;

  return (
    <FieldContext.Provider value={fields}>
      <form
        aria-labelledby={headingId}
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void editor.save();
        }}
      >
        <h2 id={headingId} className="sr-only">
          {t('feedback.title')}
        </h2>
        <div className="space-y-3">
          {write.reason ? <Alert tone="info">{write.reason}</Alert> : null}
          {editor.conflict ? (
            <Alert
              tone="warning"
              title={t('feedback.conflict.title')}
              actions={
                <Button size="sm" onClick={() => void editor.reload()}>
                  <RotateCcw aria-hidden="true" className="size-4" />
                  {t('feedback.reload')}
                </Button>
              }
            >
              <p>{editor.conflict}</p>
              <p className="mt-1">{t('feedback.conflict.body')}</p>
            </Alert>
          ) : null}
          {editor.notice ? <Alert tone="info">{t(`feedback.notice.${editor.notice}`, { version: base.version })}</Alert> : null}
          {editor.failure ? (
            <div ref={failureRef} tabIndex={-1} className="outline-none">
              <Alert tone="danger" title={t('feedback.failed')}>
                {editor.failure}
              </Alert>
            </div>
          ) : null}
          {validation.elsewhere.length > 0 ? (
            <Alert tone="warning" title={t('editor.elsewhere.title')}>
              <ul className="list-disc space-y-0.5 pl-5">
                {validation.elsewhere.map((issue) => (
                  <li key={`${issue.path}-${issue.message}`}>{issue.message}</li>
                ))}
              </ul>
            </Alert>
          ) : null}
        </div>

        <div className="mt-4 grid items-start gap-6 xl:grid-cols-[minmax(0,1fr)_minmax(0,27rem)]">
          <fieldset disabled={!write.canWrite} className="m-0 min-w-0 space-y-5 border-0 p-0">
            <Section title={t('feedback.title')} description={t('feedback.description')}>
              <Toggle path="feedback.enabled" label={t('feedback.enabled')} checked={draft.feedback.enabled} onChange={(enabled) => setFeedback({ enabled })} hint={t('feedback.enabled.hint')} />
              <TextArea
                path="feedback.question"
                label={t('feedback.question')}
                value={draft.feedback.question}
                onChange={(question) => setFeedback({ question })}
                max={FEEDBACK_QUESTION_MAX}
                rows={3}
                placeholder={FEEDBACK_BOT_TEXT[language].question}
                hint={t('feedback.question.hint', { language: t(`feedback.language.${language}`) })}
              />
            </Section>
            <Section title={t('feedback.panels.title')} description={t('feedback.panels.description')}>
              {config.panels.length === 0 ? (
                <div className="text-sm text-surface-700 dark:text-surface-300">
                  <p>{t('feedback.panels.none')}</p>
                  <Link to={href('/dashboard/:server/configs', { server })} className={buttonClasses({ variant: 'secondary', size: 'sm', className: 'mt-2' })}>
                    {t('feedback.panels.menu')}
                  </Link>
                </div>
              ) : (
                <>
                  <p className="text-sm text-surface-700 dark:text-surface-300">{t('feedback.summary', { count: asking, total: config.panels.length })}</p>
                  <ul className="divide-y divide-surface-200 dark:divide-surface-800">
                    {config.panels.map((panel) => {
                      const choice = choiceOf(draft.panels[panel.id]);
                      const asks = feedbackWanted(draft.feedback, { feedback: draft.panels[panel.id] ?? null });
                      return (
                        <li key={panel.id} className="flex flex-col gap-2 py-3 sm:flex-row sm:items-end sm:justify-between">
                          <div className="min-w-0">
                            <p className="font-medium break-words text-surface-900 dark:text-surface-50">{panel.name}</p>
                            <p className="text-xs text-surface-600 dark:text-surface-400">{t('feedback.panel.asks', { asks: asks ? 'yes' : 'no' })}</p>
                          </div>
                          <SelectInput<PanelChoice>
                            path={`panels.${panel.id}`}
                            label={<span className="sr-only">{t('feedback.panel.choice', { name: panel.name })}</span>}
                            value={choice}
                            onChange={(next) => setPanel(panel.id, next)}
                            className="sm:w-64"
                            options={[
                              { value: 'server', label: t('feedback.panel.server', { state: serverState }) },
                              { value: 'on', label: t('feedback.panel.on') },
                              { value: 'off', label: t('feedback.panel.off') },
                            ]}
                          />
                        </li>
                      );
                    })}
                  </ul>
                </>
              )}
            </Section>
          </fieldset>
          <aside aria-label={t('preview.label')} className="min-w-0 xl:sticky xl:top-4">
            <FeedbackPreview draft={draft} config={config} />
          </aside>
        </div>

        <div className="sticky bottom-0 z-20 mt-6 flex flex-col gap-2 border-t border-surface-200 bg-white/95 py-3 backdrop-blur-sm sm:flex-row sm:items-center sm:justify-between dark:border-surface-800 dark:bg-surface-950/95">
          <p role="status" className="text-sm text-surface-700 dark:text-surface-300">
            {editor.dirty ? t('feedback.status.unsaved') : t('feedback.status.clean')}
            {validation.count > 0 ? <span className="ml-2 font-semibold text-red-700 dark:text-red-400">{t('feedback.status.problems', { count: validation.count })}</span> : null}
          </p>
          {write.canWrite ? (
            <div className="flex flex-wrap gap-2">
              {editor.dirty ? (
                <Button variant="ghost" onClick={() => editor.discard()} disabled={editor.saving}>
                  {t('feedback.discard')}
                </Button>
              ) : null}
              <Button type="submit" loading={editor.saving} disabled={!editor.dirty}>
                <Save aria-hidden="true" className="size-4" />
                {editor.saving ? t('feedback.saving') : t('feedback.save')}
              </Button>
            </div>
          ) : null}
        </div>
      </form>
    </FieldContext.Provider>
  );
}
