import { Link } from '@tickety/shared';
import { Alert, buttonClasses } from '@tickety/ui';
import { href } from '../../lib/hrefs';
import { useT } from './i18n';

/** The address names a panel or multi-panel the configuration does not have (deleted, or a typo). */
export function NotFound({ server, kind, id }: { server: string; kind: 'panel' | 'multi'; id: string }) {
  const t = useT();
  return (
    <Alert
      tone="warning"
      title={t(kind === 'panel' ? 'editor.notFound.panel' : 'editor.notFound.multi', { id })}
      actions={
        <Link to={href('/dashboard/:server/configs', { server })} className={buttonClasses({ size: 'sm', variant: 'secondary' })}>
          {t('editor.back')}
        </Link>
      }
    >
      {t('editor.notFound.body')}
    </Alert>
  );
}
