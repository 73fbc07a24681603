/** What marks a stand-in's checkout dialog in the host page (tests and the SDK find it by these). */
export interface DialogScriptOptions {
  /** The attribute on the dialog's root, e.g. `data-paddle-sandbox`, and its value. */
  marker: [attribute: string, value: string];
  /** The iframe's name. */
  frameName: string;
}

/**
 * Browser code (ES5, inside an SDK stand-in's IIFE) defining `styled(tag, style)` and
 * `buildDialog(src, onClose)`: the accessible modal dialog around the checkout iframe, with a close
 * button and focus kept inside by two sentinels. Returns `{ root, frame, closeButton }`; the caller
 * attaches it and handles Escape.
 */
export function dialogScript(options: DialogScriptOptions): string {
  const [attribute, value] = options.marker;
  return `  function styled(tag, style) {
    var el = document.createElement(tag);
    for (var k in style) if (Object.prototype.hasOwnProperty.call(style, k)) el.style[k] = style[k];
    return el;
  }

  function buildDialog(src, onClose) {
    var root = styled('div', {
      position: 'fixed', top: '0', right: '0', bottom: '0', left: '0', zIndex: '2147483647',
      background: 'rgba(17, 24, 39, 0.72)', display: 'flex', alignItems: 'center', justifyContent: 'center',
      padding: '16px', boxSizing: 'border-box'
    });
    root.setAttribute('role', 'dialog');
    root.setAttribute('aria-modal', 'true');
    root.setAttribute('aria-label', 'Checkout');
    root.setAttribute(${JSON.stringify(attribute)}, ${JSON.stringify(value)});
    var panel = styled('div', { position: 'relative', width: '100%', maxWidth: '480px', height: '100%', maxHeight: '760px' });
    var frame = styled('iframe', { width: '100%', height: '100%', border: '0', borderRadius: '12px', background: '#fff', display: 'block' });
    frame.title = 'Checkout';
    frame.name = ${JSON.stringify(options.frameName)};
    frame.src = src;
    var closeButton = styled('button', {
      position: 'absolute', top: '8px', right: '8px', width: '40px', height: '40px', borderRadius: '50%',
      border: '2px solid #1d1f24', background: '#fff', color: '#1d1f24', fontSize: '24px', lineHeight: '1',
      cursor: 'pointer', zIndex: '1'
    });
    closeButton.type = 'button';
    closeButton.setAttribute('aria-label', 'Close checkout');
    closeButton.textContent = '\\u00d7';
    closeButton.addEventListener('click', onClose);
    // Focus stays in the dialog: the sentinels send it round between the close button and the checkout.
    var before = styled('span', {});
    var after = styled('span', {});
    before.tabIndex = 0;
    after.tabIndex = 0;
    before.addEventListener('focus', function () { frame.focus(); });
    after.addEventListener('focus', function () { closeButton.focus(); });
    panel.appendChild(closeButton);
    panel.appendChild(frame);
    root.appendChild(before);
    root.appendChild(panel);
    root.appendChild(after);
    return { root: root, frame: frame, closeButton: closeButton };
  }
`;
}
