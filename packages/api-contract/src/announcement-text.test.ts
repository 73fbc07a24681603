import { describe, expect, it } from 'vitest';
import { announcementPlainText, announcementTextLength, parseAnnouncementText, safeAnnouncementHref } from './announcement-text';
import { AnnouncementText, CreateAnnouncementBody } from './announcements-api';

describe('announcement text', () => {
  it('parses the small markdown subset to a tree of text', () => {
    expect(parseAnnouncementText('Maintenance **tonight** at *22:00* `UTC`\nsee [status](/status)\n\n- one\n- _two_')).toEqual([
      {
        type: 'paragraph',
        children: [
          { type: 'text', text: 'Maintenance ' },
          { type: 'strong', children: [{ type: 'text', text: 'tonight' }] },
          { type: 'text', text: ' at ' },
          { type: 'em', children: [{ type: 'text', text: '22:00' }] },
          { type: 'text', text: ' ' },
          { type: 'code', text: 'UTC' },
          { type: 'break' },
          { type: 'text', text: 'see ' },
          { type: 'link', href: '/status', external: false, children: [{ type: 'text', text: 'status' }] },
        ],
      },
      { type: 'list', items: [[{ type: 'text', text: 'one' }], [{ type: 'em', children: [{ type: 'text', text: 'two' }] }]] },
    ]);
  });

  it('keeps markup and unsafe addresses as text', () => {
    const text = '<img src=x onerror=alert(1)> [x](javascript:alert(1)) [y](//evil.example) [z](data:text/html,hi) snake_case_name \\*not em\\*';
    // An address with parentheses is no link at all: the whole of it stays text.
    expect(announcementPlainText(text)).toBe('<img src=x onerror=alert(1)> [x](javascript:alert(1)) y z snake_case_name *not em*');
    const nodes = parseAnnouncementText(text).flatMap((b) => (b.type === 'paragraph' ? b.children : []));
    expect(nodes.every((n) => n.type === 'text')).toBe(true);
  });

  it('keeps only https, http, mailto and site paths as links', () => {
    expect(safeAnnouncementHref('https://discordstatus.com')).toEqual({ href: 'https://discordstatus.com/', external: true });
    expect(safeAnnouncementHref('mailto:help@tickety.test')).toEqual({ href: 'mailto:help@tickety.test', external: true });
    expect(safeAnnouncementHref('/status')).toEqual({ href: '/status', external: false });
    for (const bad of ['javascript:alert(1)', 'JAVASCRIPT:x', '//evil.example', '/\\evil.example', 'data:text/html,x', 'vbscript:x', 'status', 'https://']) {
      expect(safeAnnouncementHref(bad), bad).toBeNull();
    }
  });

  it('stays fast on hostile nesting', () => {
    const hostile = '**_'.repeat(160) + '*[`'.repeat(10);
    const started = performance.now();
    parseAnnouncementText(hostile);
    expect(performance.now() - started).toBeLessThan(200);
  });

  it('counts characters as people do and trims what it stores', () => {
    expect(announcementTextLength('😀a')).toBe(2);
    expect(AnnouncementText.parse('  a\r\nb  ')).toBe('a\nb');
    expect(AnnouncementText.safeParse('x'.repeat(501)).success).toBe(false);
    expect(AnnouncementText.safeParse('😀'.repeat(500)).success).toBe(true);
    expect(CreateAnnouncementBody.safeParse({ severity: 'info', text: 'x', audience: 'nobody' }).success).toBe(false);
  });
});
