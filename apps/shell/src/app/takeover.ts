/**
 * Taking over a prerendered page (the server sent the public page already rendered in #root,
 * marked data-prerendered): the app renders into a hidden container beside it, and the two are
 * swapped in one go once the app shows the same page, so nothing moves or flashes. Any other page
 * renders into #root directly.
 */
let shown: (() => void) | null = null;

/** Where the app renders; `swap` runs once (the app's first page is shown, or it gave up waiting). */
export function prepareRoot(doc: Document = document, giveUpMs = 10_000): HTMLElement {
  const root = doc.getElementById('root')!;
  if (!root.hasAttribute('data-prerendered')) return root;
  const app = doc.createElement('div');
  app.hidden = true;
  root.after(app);
  let done = false;
  const swap = () => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    root.remove();
    app.id = 'root';
    app.hidden = false;
  };
  // A page that never arrives (a remote down) must not leave the app hidden: its error shows instead.
  const timer = setTimeout(swap, giveUpMs);
  shown = swap;
  return app;
}

/** The first page (or its error) is on screen in the app: take the prerendered page's place. */
export function pageShown(): void {
  const swap = shown;
  shown = null;
  swap?.();
}
