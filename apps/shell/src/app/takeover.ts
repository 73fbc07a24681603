/**
 * Taking over a prerendered page (the server sent the public page already rendered in #root,
 * marked data-prerendered): the app renders into a hidden container beside it, and the two are
 * swapped in one go once the app shows the same page, so nothing moves or flashes. Any other page
 * renders into #root directly.
 */
import { isPrerenderedHere, keepPresses } from '../boot/boot';

let shown: (() => void) | null = null;

/** Where `el` sits under `root`: the child index at each level. */
function pathOf(el: Element, root: Element): number[] {
  const path: number[] = [];
  for (let node: Element | null = el; node && node !== root; node = node.parentElement) {
    path.unshift(node.parentElement ? Array.prototype.indexOf.call(node.parentElement.children, node) : 0);
  }
  return path;
}

function at(root: Element, path: number[]): Element | null {
  let node: Element | null = root;
  for (const i of path) node = node?.children[i] ?? null;
  return node;
}

/** Where the app renders; `swap` runs once (the app's first page is shown, or it gave up waiting). */
export function prepareRoot(doc: Document = document, giveUpMs = 10_000): HTMLElement {
  const root = doc.getElementById('root')!;
  // Not a page prerendered for this address (or none): the app renders over it.
  if (!isPrerenderedHere(root, (doc.defaultView ?? window).location)) {
    root.removeAttribute('data-prerendered');
    return root;
  }
  const app = doc.createElement('div');
  app.hidden = true;
  root.after(app);
  // A button pressed on the prerendered copy (Login, the menu...) is pressed again on the app once it
  // is in place: the same markup, so the same place (and the same tag and text, or it is dropped).
  // The boot script keeps them from the first paint (boot/boot.ts); without it, from now.
  const win = doc.defaultView ?? window;
  const boot = win.__tickety;
  const pressed = boot?.pressed ?? [];
  const stopKeeping = boot ? () => undefined : keepPresses(root, pressed, doc, win);
  let done = false;
  const swap = () => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    stopKeeping();
    const replay = pressed.splice(0).map((control) => ({ path: pathOf(control, root), tag: control.tagName, text: control.textContent ?? '' }));
    root.remove();
    app.id = 'root';
    app.hidden = false;
    for (const p of replay) {
      const same = at(app, p.path);
      if (same && same.tagName === p.tag && (same.textContent ?? '') === p.text) (same as HTMLElement).click();
    }
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
