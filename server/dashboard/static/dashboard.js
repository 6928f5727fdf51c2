/* global document, window, navigator, Element, HTMLFormElement */
// Partner dashboard: copy buttons and confirmations. Loaded from 'self' (no inline script, CSP).
'use strict';
document.addEventListener('click', (event) => {
  const button = event.target instanceof Element ? event.target.closest('[data-copy]') : null;
  if (!button) return;
  const source = document.getElementById(button.getAttribute('data-copy') || '');
  const status = document.getElementById('copy-status');
  if (!source) return;
  const done = (text) => {
    if (status) status.textContent = text;
  };
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(source.textContent || '').then(
      () => done('Copied to the clipboard.'),
      () => done('Copy failed: select the text and copy it by hand.'),
    );
  } else {
    // Plain HTTP on another host has no clipboard API: select the text for the user.
    const range = document.createRange();
    range.selectNodeContents(source);
    const selection = window.getSelection();
    if (selection) {
      selection.removeAllRanges();
      selection.addRange(range);
    }
    done('Selected: press Ctrl+C (or ⌘C) to copy.');
  }
});
document.addEventListener('submit', (event) => {
  const form = event.target;
  if (!(form instanceof HTMLFormElement)) return;
  const question = form.getAttribute('data-confirm');
  if (question && !window.confirm(question)) event.preventDefault();
});
