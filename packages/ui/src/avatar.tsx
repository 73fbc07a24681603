import { useState } from 'react';
import { cx } from './cx';

const SIZES = { xs: 'size-6 text-[10px]', sm: 'size-8 text-xs', md: 'size-10 text-sm', lg: 'size-14 text-lg', xl: 'size-20 text-2xl' } as const;

/** Up to two initials of a name ("Ava's Arcade" -> "AA"). */
export function initials(name: string): string {
  const words = name
    .replace(/[^\p{L}\p{N}\s]/gu, '')
    .split(/\s+/)
    .filter(Boolean);
  const letters = words.length > 1 ? [words[0]![0], words[1]![0]] : [...(words[0] ?? '?')].slice(0, 2);
  return letters.join('').toUpperCase() || '?';
}

interface AvatarProps {
  src: string | null | undefined;
  name: string;
  size?: keyof typeof SIZES;
  shape?: 'circle' | 'square';
  /** Decorative by default (`alt=""`): the name is usually written beside it. */
  alt?: string;
  className?: string;
}

/** A round (or rounded-square for servers) image with the name's initials as the fallback, also when the image fails to load. */
export function Avatar(props: AvatarProps) {
  // A new src starts a fresh attempt (a failure of the old image does not stick).
  return <AvatarImage key={props.src ?? ''} {...props} />;
}

function AvatarImage({ src, name, size = 'md', shape = 'circle', alt = '', className }: AvatarProps) {
  const [failed, setFailed] = useState(false);
  const base = cx('inline-flex shrink-0 items-center justify-center overflow-hidden font-semibold', shape === 'circle' ? 'rounded-full' : 'rounded-xl', SIZES[size], className);
  if (src && !failed) {
    return <img src={src} alt={alt} loading="lazy" decoding="async" className={cx(base, 'object-cover')} onError={() => setFailed(true)} />;
  }
  const fallback = cx(base, 'bg-primary-100 text-primary-800 dark:bg-primary-900 dark:text-primary-100');
  if (alt) {
    return (
      <span role="img" aria-label={alt} className={fallback}>
        {initials(name)}
      </span>
    );
  }
  return (
    <span aria-hidden="true" className={fallback}>
      {initials(name)}
    </span>
  );
}
