import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DiscordNamesContext, MarkdownView } from './markdown-view';

const names = {
  loaded: true,
  roles: new Map([['112233445566778899', { name: 'Support Team', color: 0x2ecc71 }]]),
  channels: new Map([['667788990011223344', { name: 'transcripts' }]]),
  emojiUrl: (id: string) => `https://cdn.test/emojis/${id}.png`,
};

function show(text: string) {
  return render(
    <DiscordNamesContext.Provider value={names}>
      <div data-testid="out">
        <MarkdownView text={text} />
      </div>
    </DiscordNamesContext.Provider>,
  );
}

describe('MarkdownView', () => {
  it('renders Discord formatting as elements', () => {
    show('**bold** *italic* __under__ ~~gone~~ `code`\n> quoted\n- one\n- two\n# Title\n[docs](https://docs.test/x)');
    const out = screen.getByTestId('out');
    expect(out.querySelector('strong')).toHaveTextContent('bold');
    expect(out.querySelector('em')).toHaveTextContent('italic');
    expect(out.querySelector('u')).toHaveTextContent('under');
    expect(out.querySelector('s')).toHaveTextContent('gone');
    expect(out.querySelector('code')).toHaveTextContent('code');
    expect(out.querySelector('blockquote')).toHaveTextContent('quoted');
    expect(out.querySelectorAll('ul > li')).toHaveLength(2);
    expect(screen.getByText('Title')).toBeInTheDocument();
    const link = screen.getByRole('link', { name: 'docs' });
    expect(link).toHaveAttribute('href', 'https://docs.test/x');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer nofollow');
    expect(link).toHaveAttribute('target', '_blank');
  });

  it('shows role and channel mentions as pills with the server names', () => {
    show('Ask <@&112233445566778899> in <#667788990011223344>, not <@&1>.');
    expect(screen.getByText('@Support Team')).toBeInTheDocument();
    expect(screen.getByText('#transcripts')).toBeInTheDocument();
    expect(screen.getByText('@deleted-role')).toBeInTheDocument();
  });

  it('never injects HTML: a tag in the text is shown as text', () => {
    show('<img src=x onerror="alert(1)"> <script>alert(2)</script> <b>no</b>');
    const out = screen.getByTestId('out');
    expect(out.querySelector('img')).toBeNull();
    expect(out.querySelector('script')).toBeNull();
    expect(out.querySelector('b')).toBeNull();
    expect(out).toHaveTextContent('<img src=x onerror="alert(1)"> <script>alert(2)</script> <b>no</b>');
  });

  it('does not link javascript: addresses', () => {
    show('[click](javascript:alert(1))');
    expect(screen.queryByRole('link')).toBeNull();
  });
});
