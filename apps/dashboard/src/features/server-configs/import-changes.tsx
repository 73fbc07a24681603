import type { ImportPreview } from '@tickety/api-contract';
import { Alert } from '@tickety/ui';
import { ConfigChanges } from '../../components/config-changes';
import { describeChanges } from '../../lib/config-change-text';
import { idPath, isObject } from './api';
import { useT } from './i18n';

/** A field path in words ("Panel “Support” › Ticket category"), named from `config`. */
function pathLabel(t: Parameters<typeof describeChanges>[0], path: string, config: unknown): string {
  const [view] = describeChanges(t, [{ path: idPath(path, config), before: null, after: null }], isObject(config) ? config : undefined);
  return view ? view.labels.join(' › ') : path;
}

/** What a checked configuration file would change: the channels and roles it could not match here, and its changes. */
export function ImportChanges({ preview }: { preview: ImportPreview }) {
  const t = useT();
  return (
    <>
      {preview.unmapped.length > 0 ? (
        <Alert tone="warning" title={t('restore.import.unmappedTitle', { count: preview.unmapped.length })}>
          <p>{t('restore.import.unmappedBody')}</p>
          <ul className="mt-2 list-disc space-y-1 pl-5">
            {preview.unmapped.map((ref) => {
              const places = [...new Set(ref.paths.map((path) => pathLabel(t, path, preview.config)))];
              return (
                <li key={`${ref.kind}:${ref.id}`} className="break-words [overflow-wrap:anywhere]">
                  <span className="font-medium">
                    {ref.kind === 'channel'
                      ? t('restore.import.unmappedChannel', { name: ref.name || ref.id, known: ref.name ? 'yes' : 'no' })
                      : t('restore.import.unmappedRole', { name: ref.name || ref.id, known: ref.name ? 'yes' : 'no' })}
                  </span>
                  {places.length > 0 ? <span>{t('restore.import.usedIn', { places: places.join('; ') })}</span> : null}
                </li>
              );
            })}
          </ul>
        </Alert>
      ) : null}

      <div>
        <h3 className="text-base font-semibold text-surface-900 dark:text-surface-50">{t('restore.import.changesTitle', { count: preview.changes.length })}</h3>
        <p className="mb-3 mt-1 text-sm text-surface-600 dark:text-surface-400">{t('restore.import.changesIntro', { current: preview.liveVersion })}</p>
        <ConfigChanges changes={preview.changes} config={preview.config} />
      </div>
    </>
  );
}
