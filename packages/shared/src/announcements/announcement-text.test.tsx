import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { AnnouncementBody, AnnouncementText } from './announcement-text';

afterEach(cleanup);

function renderText(text: string) {
  return render(
    <MemoryRouter>
      <AnnouncementText text={text} />
    </MemoryRouter>,
  );
}

describe('AnnouncementText', () => {
  it('renders the markdown subset: paragraphs, breaks, lists, bold, italic, code and this site’s links', () => {
    const { container } = renderText('Maintenance **tonight** at *22:00 UTC*: see the [status page](/status).\nRun `/ticket`\n\nLogins fail\n- Discord is down\n- we are on it');
    expect(screen.getByText('tonight').tagName).toBe('STRONG');
    expect(screen.getByText('22:00 UTC').tagName).toBe('EM');
    expect(screen.getByText('/ticket').tagName).toBe('CODE');
    const link = screen.getByRole('link', { name: 'status page' });
    expect(link).toHaveAttribute('href', '/status');
    expect(link).not.toHaveAttribute('target');
    expect(container.querySelectorAll('p')).toHaveLength(2);
    expect(container.querySelectorAll('br')).toHaveLength(1);
    expect(screen.getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Discord is down', 'we are on it']);
  });

  it('renders an XSS attempt inert: markup is text, unsafe links are words', () => {
    const attack = [
      '<img src=x onerror="window.__xss=1"> <script>window.__xss=2</script>',
      '[click me](javascript:window.__xss=3) [data](data:text/html,<b>x</b>) [far](//evil.example/x)',
      '<a href="javascript:alert(1)">raw link</a> **<iframe src="https://evil.example"></iframe>**',
    ].join('\n');
    const { container } = renderText(attack);
    for (const tag of ['img', 'script', 'iframe', 'b']) expect(container.querySelector(tag), tag).toBeNull();
    expect(container.querySelectorAll('a')).toHaveLength(0);
    expect(screen.getByText(/<img src=x onerror="window.__xss=1">/)).toBeInTheDocument();
    expect(screen.getByText(/click me/)).not.toHaveAttribute('href');
    expect(container.textContent).toContain('<a href="javascript:alert(1)">raw link</a>');
    expect((window as { __xss?: unknown }).__xss).toBeUndefined();
  });

  it('opens another site’s link in a new tab without the opener', () => {
    renderText('See [Discord status](https://discordstatus.com/)');
    const link = screen.getByRole('link', { name: 'Discord status' });
    expect(link).toHaveAttribute('href', 'https://discordstatus.com/');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
  });
});

describe('AnnouncementBody', () => {
  it('shows the severity’s name beside its (decorative) icon, then the text', () => {
    const { container } = render(
      <AnnouncementBody severity="critical" label="Incident">
        <p>Logins fail</p>
      </AnnouncementBody>,
    );
    expect(screen.getByText('Incident', { selector: 'p' })).toBeInTheDocument();
    expect(container.querySelector('svg')).toHaveAttribute('aria-hidden', 'true');
    expect(container.textContent).toBe('IncidentLogins fail');
  });
});
